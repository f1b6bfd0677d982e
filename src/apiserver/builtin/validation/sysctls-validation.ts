// validateSysctls: a pod's securityContext.sysctls as upstream's validateSysctls checks them (name format, no repeats, none of a host namespace the pod shares).
import type { StatusCause } from '../../api-status.ts';
import { fieldError } from './field-error.ts';
import { type Obj, shape } from './json-shape.ts';

const SEGMENT = '[a-z0-9]([-_a-z0-9]*[a-z0-9])?';
const PATTERN = `^(${SEGMENT}[\\./])*${SEGMENT}$`;
const NAME = new RegExp(PATTERN);
const MAX_LENGTH = 253;

/** The kernel namespace a sysctl lives in (the kubelet's split: net.*, and the IPC keys), by its dotted name. */
function namespaceOf(name: string): 'net' | 'ipc' | undefined {
  const dotted = name.replaceAll('/', '.');
  if (dotted.startsWith('net.')) return 'net';
  if (
    dotted === 'kernel.sem' ||
    dotted.startsWith('kernel.shm') ||
    dotted.startsWith('kernel.msg') ||
    dotted.startsWith('fs.mqueue.')
  )
    return 'ipc';
  return undefined;
}

/**
 * Each sysctl named (at most 253 characters of dot- or slash-separated segments), no name twice, and
 * no net.* sysctl with hostNetwork nor IPC sysctl with hostIPC. Which sysctls are safe is the
 * kubelet's decision, not the API server's.
 * @param sysctls the `sysctls` list
 * @param path its field path, e.g. `spec.securityContext.sysctls`
 * @param spec the pod spec (hostNetwork, hostIPC)
 * @returns the causes, empty when valid
 */
export function validateSysctls(sysctls: unknown, path: string, spec: Obj): StatusCause[] {
  const out: StatusCause[] = [];
  const seen = new Set<string>();
  shape.list(sysctls).forEach((sysctl, i) => {
    const field = `${path}[${i}].name`;
    const name = shape.str(sysctl.name) ?? '';
    if (name === '') out.push(fieldError.required(field));
    else if (name.length > MAX_LENGTH || !NAME.test(name))
      out.push(
        fieldError.invalid(
          field,
          name,
          `must have at most ${MAX_LENGTH} characters and match regex ${PATTERN}`,
        ),
      );
    else if (seen.has(name)) out.push(fieldError.duplicate(field, name));
    const namespace = namespaceOf(name);
    if (spec.hostNetwork === true && namespace === 'net')
      out.push(fieldError.invalid(field, name, "may not be specified when 'hostNetwork' is true"));
    else if (spec.hostIPC === true && namespace === 'ipc')
      out.push(fieldError.invalid(field, name, "may not be specified when 'hostIPC' is true"));
    seen.add(name);
  });
  return out;
}
