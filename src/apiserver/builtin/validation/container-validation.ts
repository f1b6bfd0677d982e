// validateContainers: a pod's containers or init containers as upstream validates them (ports, env, mounts, probes, hooks, resources).
import type { StatusCause } from '../../api-status.ts';
import { validateEnv } from './env-validation.ts';
import { fieldError } from './field-error.ts';
import { filePathCauses } from './file-path-rules.ts';
import { formatErrors } from './format-rules.ts';
import { validateHandler } from './handler-validation.ts';
import { type Obj, shape } from './json-shape.ts';
import { validateProbe } from './probe-validation.ts';
import { validateResourceRequirements } from './resource-requirements-validation.ts';
import { validateSecurityContext } from './security-context-validation.ts';

/** What the containers' rules need to know of their pod. */
export interface ContainerContext {
  /** `containers` or `initContainers` */
  readonly list: 'containers' | 'initContainers';
  /** the names of the pod's volumes, which mounts must name */
  readonly volumes: ReadonlySet<string>;
  /** the pod's terminationGracePeriodSeconds, bounding a preStop sleep */
  readonly gracePeriod: number | undefined;
  readonly hostNetwork: boolean;
  /** names of the pod's regular containers, which init containers may not reuse */
  readonly otherNames: ReadonlySet<string>;
  /** also check names and images (where the generic object validation does not already) */
  readonly names: boolean;
}

function portsCauses(ports: Obj[], path: string, hostNetwork: boolean): StatusCause[] {
  const out: StatusCause[] = [];
  const names = new Set<string>();
  ports.forEach((port, i) => {
    const at = `${path}[${i}]`;
    const name = shape.str(port.name) ?? '';
    if (name !== '') {
      const problems = formatErrors.portName(name);
      if (problems.length) out.push(...problems.map((m) => fieldError.invalid(`${at}.name`, name, m)));
      else if (names.has(name)) out.push(fieldError.duplicate(`${at}.name`, name));
      else names.add(name);
    }
    if (port.containerPort === undefined || port.containerPort === 0 || port.containerPort === null)
      out.push(fieldError.required(`${at}.containerPort`));
    else
      out.push(
        ...formatErrors
          .portNumber(Number(port.containerPort))
          .map((m) => fieldError.invalid(`${at}.containerPort`, port.containerPort, m)),
      );
    if (port.hostPort !== undefined && port.hostPort !== 0 && port.hostPort !== null)
      out.push(
        ...formatErrors
          .portNumber(Number(port.hostPort))
          .map((m) => fieldError.invalid(`${at}.hostPort`, port.hostPort, m)),
      );
    if (hostNetwork && port.hostPort !== undefined && port.hostPort !== port.containerPort)
      out.push(
        fieldError.invalid(
          `${at}.hostPort`,
          port.hostPort,
          'must match `containerPort` when `hostNetwork` is true',
        ),
      );
  });
  return out;
}

function mountsCauses(mounts: Obj[], path: string, volumes: ReadonlySet<string>): StatusCause[] {
  const out: StatusCause[] = [];
  const mountPaths = new Set<string>();
  mounts.forEach((mount, i) => {
    const at = `${path}[${i}]`;
    const name = shape.str(mount.name) ?? '';
    if (name === '') out.push(fieldError.required(`${at}.name`));
    if (!volumes.has(name)) out.push(fieldError.notFound(`${at}.name`, name));
    const mountPath = shape.str(mount.mountPath) ?? '';
    if (mountPath === '') out.push(fieldError.required(`${at}.mountPath`));
    if (mountPaths.has(mountPath))
      out.push(fieldError.invalid(`${at}.mountPath`, mountPath, 'must be unique'));
    mountPaths.add(mountPath);
    const subPath = shape.str(mount.subPath) ?? '';
    if (subPath !== '') out.push(...filePathCauses.descending(subPath, `${at}.subPath`));
    const subPathExpr = shape.str(mount.subPathExpr) ?? '';
    if (subPathExpr !== '') {
      if (subPath !== '')
        out.push(
          fieldError.invalid(
            `${at}.subPathExpr`,
            subPathExpr,
            'subPathExpr and subPath are mutually exclusive',
          ),
        );
      else out.push(...filePathCauses.descending(subPathExpr, `${at}.subPathExpr`));
    }
  });
  return out;
}

/** The per-container rules shared by both lists. */
function containerCauses(c: Obj, at: string, context: ContainerContext): StatusCause[] {
  const out: StatusCause[] = [];
  out.push(...portsCauses(shape.list(c.ports), `${at}.ports`, context.hostNetwork));
  out.push(...validateEnv(c, at));
  out.push(...mountsCauses(shape.list(c.volumeMounts), `${at}.volumeMounts`, context.volumes));
  out.push(...validateResourceRequirements(c.resources, `${at}.resources`));
  out.push(...validateSecurityContext('container', c.securityContext, `${at}.securityContext`));
  const sidecar = c.restartPolicy === 'Always';
  const probesAllowed = context.list === 'containers' || sidecar;
  if (context.list === 'initContainers') {
    if (c.restartPolicy !== undefined && c.restartPolicy !== null && !sidecar)
      out.push(fieldError.notSupported(`${at}.restartPolicy`, c.restartPolicy, ['Always']));
  } else if (c.restartPolicy !== undefined && c.restartPolicy !== null) {
    out.push(fieldError.forbidden(`${at}.restartPolicy`, 'may not be set for non-init containers'));
  }
  const lifecycle = shape.obj(c.lifecycle);
  if (c.lifecycle !== undefined && c.lifecycle !== null && !probesAllowed)
    out.push(
      fieldError.forbidden(
        `${at}.lifecycle`,
        'may not be set for init containers without restartPolicy=Always',
      ),
    );
  else
    for (const hook of ['postStart', 'preStop']) {
      if (lifecycle[hook] === undefined || lifecycle[hook] === null) continue;
      out.push(
        ...validateHandler(shape.obj(lifecycle[hook]), `${at}.lifecycle.${hook}`, context.gracePeriod, true),
      );
    }
  for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe'] as const) {
    if (c[probe] === undefined || c[probe] === null) continue;
    if (!probesAllowed)
      out.push(
        fieldError.forbidden(
          `${at}.${probe}`,
          'may not be set for init containers without restartPolicy=Always',
        ),
      );
    else out.push(...validateProbe(c[probe], `${at}.${probe}`, probe));
  }
  return out;
}

/**
 * One list of a pod's containers: every container's ports (valid, unique names; host ports unique per
 * protocol and IP across the list; equal to the container port under hostNetwork), environment, volume
 * mounts (of declared volumes, unique mount paths, relative sub-paths), resources, probes and hooks
 * (init containers only when they are sidecars), and restartPolicy (init containers only, `Always`).
 * @param containers the list
 * @param path its field path, e.g. `spec.containers`
 * @param context what the rules need of the pod
 * @returns the causes, empty when valid
 */
export function validateContainers(
  containers: unknown,
  path: string,
  context: ContainerContext,
): StatusCause[] {
  const out: StatusCause[] = [];
  const hostPorts = new Set<string>();
  const seen = new Set<string>();
  shape.list(containers).forEach((c, i) => {
    const at = `${path}[${i}]`;
    const name = shape.str(c.name) ?? '';
    if (context.names) {
      if (name === '') out.push(fieldError.required(`${at}.name`));
      else {
        const problems = formatErrors.dns1123Label(name);
        if (problems.length) out.push(...problems.map((m) => fieldError.invalid(`${at}.name`, name, m)));
        else if (seen.has(name)) out.push(fieldError.duplicate(`${at}.name`, name));
      }
      if (typeof c.image !== 'string' || c.image.trim() === '') out.push(fieldError.required(`${at}.image`));
    }
    if (typeof c.image === 'string' && c.image.trim() !== '' && c.image.trim() !== c.image)
      out.push(fieldError.invalid(`${at}.image`, c.image, 'must not have leading or trailing whitespace'));
    if (name !== '' && context.otherNames.has(name) && !seen.has(name))
      out.push(fieldError.duplicate(`${at}.name`, name));
    seen.add(name);
    out.push(...containerCauses(c, at, context));
    shape.list(c.ports).forEach((port, j) => {
      if (port.hostPort === undefined || port.hostPort === 0 || port.hostPort === null) return;
      const key = `${shape.text(port.protocol ?? 'TCP')}/${shape.text(port.hostIP ?? '')}/${shape.text(port.hostPort)}`;
      if (hostPorts.has(key)) out.push(fieldError.duplicate(`${at}.ports[${j}].hostPort`, key));
      else hostPorts.add(key);
    });
  });
  return out;
}
