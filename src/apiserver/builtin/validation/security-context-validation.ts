// validateSecurityContext: a pod's or container's securityContext as upstream checks it (user and group ids, seccomp, escalation).
import type { StatusCause } from '../../api-status.ts';
import { validateAppArmorProfile } from './app-armor-profile-validation.ts';
import { fieldError } from './field-error.ts';
import { filePathCauses } from './file-path-rules.ts';
import { type Obj, shape } from './json-shape.ts';

const MAX_ID = 2147483647;
const SECCOMP_TYPES = ['Localhost', 'RuntimeDefault', 'Unconfined'];

/** IsValidUserID / IsValidGroupID: 0..2^31-1. */
function idCauses(value: unknown, field: string): StatusCause[] {
  return typeof value === 'number' && (value < 0 || value > MAX_ID || !Number.isInteger(value))
    ? [fieldError.invalid(field, value, `must be between 0 and ${MAX_ID}, inclusive`)]
    : [];
}

function seccompCauses(profile: unknown, path: string): StatusCause[] {
  if (profile === undefined || profile === null) return [];
  const p = shape.obj(profile);
  const local = p.localhostProfile;
  if (p.type === 'Localhost')
    return local === undefined || local === null
      ? [fieldError.required(`${path}.localhostProfile`, 'must be set when seccomp type is Localhost')]
      : filePathCauses.descending(shape.text(local), `${path}.localhostProfile`);
  if (p.type === 'RuntimeDefault' || p.type === 'Unconfined')
    return local === undefined || local === null
      ? []
      : [
          fieldError.invalid(
            `${path}.localhostProfile`,
            profile,
            'can only be set when seccomp type is Localhost',
          ),
        ];
  return [fieldError.notSupported(`${path}.type`, p.type ?? '', SECCOMP_TYPES)];
}

function podCauses(sc: Obj, path: string, spec: Obj): StatusCause[] {
  const out = [
    ...idCauses(sc.fsGroup, `${path}.fsGroup`),
    ...idCauses(sc.runAsUser, `${path}.runAsUser`),
    ...idCauses(sc.runAsGroup, `${path}.runAsGroup`),
  ];
  (Array.isArray(sc.supplementalGroups) ? sc.supplementalGroups : []).forEach((gid, i) => {
    out.push(...idCauses(gid, `${path}.supplementalGroups[${i}]`));
  });
  if (spec.shareProcessNamespace === true && spec.hostPID === true)
    out.push(
      fieldError.invalid(
        `${path}.shareProcessNamespace`,
        true,
        'ShareProcessNamespace and HostPID cannot both be enabled',
      ),
    );
  const policy = sc.fsGroupChangePolicy;
  if (policy !== undefined && policy !== null && policy !== 'OnRootMismatch' && policy !== 'Always')
    out.push(fieldError.notSupported(`${path}.fsGroupChangePolicy`, policy, ['OnRootMismatch', 'Always']));
  out.push(...seccompCauses(sc.seccompProfile, `${path}.seccompProfile`));
  out.push(...validateAppArmorProfile(sc.appArmorProfile, `${path}.appArmorProfile`));
  return out;
}

function containerCauses(sc: Obj, path: string): StatusCause[] {
  const out = [
    ...idCauses(sc.runAsUser, `${path}.runAsUser`),
    ...idCauses(sc.runAsGroup, `${path}.runAsGroup`),
  ];
  const procMount = sc.procMount;
  if (procMount !== undefined && procMount !== null && procMount !== 'Default' && procMount !== 'Unmasked')
    out.push(fieldError.notSupported(`${path}.procMount`, procMount, ['Default', 'Unmasked']));
  out.push(...seccompCauses(sc.seccompProfile, `${path}.seccompProfile`));
  out.push(...validateAppArmorProfile(sc.appArmorProfile, `${path}.appArmorProfile`));
  if (sc.allowPrivilegeEscalation === false) {
    if (sc.privileged === true)
      out.push(
        fieldError.invalid(
          path,
          sc,
          'cannot set `allowPrivilegeEscalation` to false and `privileged` to true',
        ),
      );
    const added = shape.obj(sc.capabilities).add;
    if (Array.isArray(added) && added.includes('CAP_SYS_ADMIN'))
      out.push(
        fieldError.invalid(
          path,
          sc,
          'cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN',
        ),
      );
  }
  return out;
}

/**
 * A securityContext: user and group ids in 0..2^31-1, a seccomp profile of a known type (a relative
 * localhost path only for Localhost), an AppArmor profile (see `validateAppArmorProfile`); for pods, fsGroupChangePolicy and no shared process namespace
 * with hostPID; for containers, procMount, and no privileged container or CAP_SYS_ADMIN without
 * privilege escalation.
 * @param kind whose context
 * @param securityContext the object (absent contexts give no causes)
 * @param path its field path
 * @param spec the pod spec (for hostPID and shareProcessNamespace)
 * @returns the causes, empty when valid
 */
export function validateSecurityContext(
  kind: 'pod' | 'container',
  securityContext: unknown,
  path: string,
  spec: Obj = {},
): StatusCause[] {
  if (securityContext === undefined || securityContext === null) return [];
  const sc = shape.obj(securityContext);
  return kind === 'pod' ? podCauses(sc, path, spec) : containerCauses(sc, path);
}
