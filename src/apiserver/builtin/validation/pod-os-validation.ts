// validatePodOS: a pod's `os` as upstream's validateOS, validateWindows and validateLinux check it (the fields each OS forbids).
import type { StatusCause } from '../../api-status.ts';
import { fieldError } from './field-error.ts';
import { type Obj, shape } from './json-shape.ts';

const OSES = ['linux', 'windows'];
const NOT_WINDOWS = 'cannot be set for a windows pod';
const NOT_LINUX = 'windows options cannot be set for a linux pod';
/** Pod securityContext fields a Windows pod may not set. */
const WINDOWS_POD_FORBIDDEN = [
  'appArmorProfile',
  'seLinuxOptions',
  'seccompProfile',
  'fsGroup',
  'fsGroupChangePolicy',
  'sysctls',
  'runAsUser',
  'runAsGroup',
  'supplementalGroups',
  'supplementalGroupsPolicy',
];
/** Container securityContext fields a Windows pod may not set. */
const WINDOWS_CONTAINER_FORBIDDEN = [
  'appArmorProfile',
  'seLinuxOptions',
  'seccompProfile',
  'capabilities',
  'readOnlyRootFilesystem',
  'privileged',
  'allowPrivilegeEscalation',
  'procMount',
  'runAsUser',
  'runAsGroup',
];

const set = (value: unknown) => value !== undefined && value !== null;

/** Each container of every kind with its field path. */
function containers(spec: Obj, path: string): [Obj, string][] {
  return ['initContainers', 'containers', 'ephemeralContainers'].flatMap((list) =>
    shape.list(spec[list]).map((c, i): [Obj, string] => [shape.obj(c), `${path}.${list}[${i}]`]),
  );
}

function windowsCauses(spec: Obj, path: string): StatusCause[] {
  const out: StatusCause[] = [];
  const sc = spec.securityContext;
  if (set(sc)) {
    const s = shape.obj(sc);
    for (const f of WINDOWS_POD_FORBIDDEN)
      if (set(s[f]) && !(f === 'sysctls' && shape.empty(s[f])))
        out.push(fieldError.forbidden(`${path}.securityContext.${f}`, NOT_WINDOWS));
  }
  if (set(spec.hostUsers)) out.push(fieldError.forbidden(`${path}.hostUsers`, NOT_WINDOWS));
  if (spec.hostPID === true) out.push(fieldError.forbidden(`${path}.hostPID`, NOT_WINDOWS));
  if (spec.hostIPC === true) out.push(fieldError.forbidden(`${path}.hostIPC`, NOT_WINDOWS));
  if (set(spec.shareProcessNamespace))
    out.push(fieldError.forbidden(`${path}.shareProcessNamespace`, NOT_WINDOWS));
  for (const [c, at] of containers(spec, path)) {
    if (!set(c.securityContext)) continue;
    const s = shape.obj(c.securityContext);
    for (const f of WINDOWS_CONTAINER_FORBIDDEN)
      if (set(s[f])) out.push(fieldError.forbidden(`${at}.securityContext.${f}`, NOT_WINDOWS));
  }
  return out;
}

function linuxCauses(spec: Obj, path: string): StatusCause[] {
  const out: StatusCause[] = [];
  if (set(shape.obj(spec.securityContext).windowsOptions))
    out.push(fieldError.forbidden(`${path}.securityContext.windowsOptions`, NOT_LINUX));
  for (const [c, at] of containers(spec, path))
    if (set(shape.obj(c.securityContext).windowsOptions))
      out.push(fieldError.forbidden(`${at}.securityContext.windowsOptions`, NOT_LINUX));
  return out;
}

/**
 * When a pod names its OS: a name, `linux` or `windows`; a Windows pod sets none of the Linux-only
 * security fields (SELinux, AppArmor, seccomp, ids, fsGroup, sysctls, host PID/IPC, user namespaces,
 * capabilities, privilege), a Linux pod no windowsOptions.
 * @param spec the pod spec
 * @param path its field path
 * @returns the causes, empty when valid (and when the pod names no OS)
 */
export function validatePodOS(spec: Obj, path: string): StatusCause[] {
  if (!set(spec.os)) return [];
  const name = shape.obj(spec.os).name;
  if (shape.empty(name)) return [fieldError.required(`${path}.os.name`, 'cannot be empty')];
  if (!OSES.includes(shape.text(name))) return [fieldError.notSupported(`${path}.os`, name, OSES)];
  return name === 'windows' ? windowsCauses(spec, path) : linuxCauses(spec, path);
}
