// Pod and container security contexts, with cases from upstream's TestValidatePodSecurityContext, TestValidateSecurityContext and seccomp tests.
import { describe, expect, it } from 'vitest';
import { validatePodSpec } from '../../../../../src/apiserver/builtin/validation/pod-spec-validation.ts';
import { causeLines } from './cause-lines.ts';

const spec = (securityContext: object | undefined, container: object | undefined, extra: object = {}) => ({
  securityContext,
  containers: [{ name: 'c', image: 'i', securityContext: container }],
  ...extra,
});
const sc = 'spec.securityContext';
const csc = 'spec.containers[0].securityContext';

describe('security contexts', () => {
  it.each([
    [
      'ids in range',
      { runAsUser: 1000, runAsGroup: 0, fsGroup: 2000, supplementalGroups: [1, 2] },
      undefined,
      [],
    ],
    [
      'a localhost seccomp profile',
      { seccompProfile: { type: 'Localhost', localhostProfile: 'profiles/audit.json' } },
      undefined,
      [],
    ],
    [
      'a runtime-default container',
      undefined,
      { seccompProfile: { type: 'RuntimeDefault' }, allowPrivilegeEscalation: false },
      [],
    ],
    [
      'a negative user',
      { runAsUser: -1 },
      undefined,
      [`${sc}.runAsUser: Invalid value: -1: must be between 0 and 2147483647, inclusive`],
    ],
    [
      'a group past 2^31-1 in the supplemental groups',
      { supplementalGroups: [1, 2147483648] },
      undefined,
      [`${sc}.supplementalGroups[1]: Invalid value: 2147483648: must be between 0 and 2147483647, inclusive`],
    ],
    [
      'an unknown fsGroupChangePolicy',
      { fsGroupChangePolicy: 'Sometimes' },
      undefined,
      [
        `${sc}.fsGroupChangePolicy: Unsupported value: "Sometimes": supported values: "OnRootMismatch", "Always"`,
      ],
    ],
    [
      'a localhost profile with no path',
      { seccompProfile: { type: 'Localhost' } },
      undefined,
      [`${sc}.seccompProfile.localhostProfile: Required value: must be set when seccomp type is Localhost`],
    ],
    [
      'an unknown seccomp type',
      undefined,
      { seccompProfile: { type: 'Strict' } },
      [
        `${csc}.seccompProfile.type: Unsupported value: "Strict": supported values: "Localhost", "RuntimeDefault", "Unconfined"`,
      ],
    ],
    [
      'a privileged container without escalation',
      undefined,
      { privileged: true, allowPrivilegeEscalation: false },
      [
        `${csc}: Invalid value: {"privileged":true,"allowPrivilegeEscalation":false}: cannot set \`allowPrivilegeEscalation\` to false and \`privileged\` to true`,
      ],
    ],
    [
      'CAP_SYS_ADMIN without escalation',
      undefined,
      { allowPrivilegeEscalation: false, capabilities: { add: ['CAP_SYS_ADMIN'] } },
      [
        `${csc}: Invalid value: {"allowPrivilegeEscalation":false,"capabilities":{"add":["CAP_SYS_ADMIN"]}}: cannot set \`allowPrivilegeEscalation\` to false and \`capabilities.Add\` CAP_SYS_ADMIN`,
      ],
    ],
    [
      'an unknown procMount',
      undefined,
      { procMount: 'Masked' },
      [`${csc}.procMount: Unsupported value: "Masked": supported values: "Default", "Unmasked"`],
    ],
  ])('%s', (_name, pod, container, expected) => {
    expect(causeLines(validatePodSpec(spec(pod, container), 'spec'))).toEqual(expected);
  });

  it('a shared process namespace and the host’s PID namespace exclude each other', () => {
    expect(
      causeLines(
        validatePodSpec(spec({}, undefined, { hostPID: true, shareProcessNamespace: true }), 'spec'),
      ),
    ).toEqual([
      `${sc}.shareProcessNamespace: Invalid value: true: ShareProcessNamespace and HostPID cannot both be enabled`,
    ]);
  });
});
