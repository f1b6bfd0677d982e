// Sysctls, the pod's `os` and AppArmor profiles, with cases from upstream's TestValidateSysctls, TestValidateOSFields/TestValidateWindowsPodSecurityContext and TestValidateAppArmorProfileFormat.
import { describe, expect, it } from 'vitest';
import { validatePodSpec } from '../../../../../src/apiserver/builtin/validation/pod-spec-validation.ts';
import { causeLines } from './cause-lines.ts';

const spec = (extra: object, container: object = {}) => ({
  containers: [{ name: 'c', image: 'i', ...container }],
  ...extra,
});
const SYSCTL_REGEX =
  'must have at most 253 characters and match regex ^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\\./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$';
const sysctls = (...names: string[]) => ({
  securityContext: { sysctls: names.map((name) => ({ name, value: '1' })) },
});

describe('sysctls', () => {
  it.each([
    [
      'dotted and slashed names',
      sysctls('kernel.shm_rmid_forced', 'net.ipv4.conf.eno2/100.rp_filter', 'a.b_c.d-e'),
      [],
    ],
    ['unsafe names are the kubelet’s business', sysctls('kernel.msgmax', 'vm.swappiness'), []],
    ['an empty name', sysctls(''), ['spec.securityContext.sysctls[0].name: Required value']],
    [
      'names that do not match',
      sysctls('foo-', 'bar..', 'Kernel.x'),
      [
        `spec.securityContext.sysctls[0].name: Invalid value: "foo-": ${SYSCTL_REGEX}`,
        `spec.securityContext.sysctls[1].name: Invalid value: "bar..": ${SYSCTL_REGEX}`,
        `spec.securityContext.sysctls[2].name: Invalid value: "Kernel.x": ${SYSCTL_REGEX}`,
      ],
    ],
    [
      'a name too long',
      sysctls(`a.${'b'.repeat(252)}`),
      [`spec.securityContext.sysctls[0].name: Invalid value: "a.${'b'.repeat(252)}": ${SYSCTL_REGEX}`],
    ],
    [
      'one name twice',
      sysctls('kernel.shmmax', 'kernel.shmmax'),
      ['spec.securityContext.sysctls[1].name: Duplicate value: "kernel.shmmax"'],
    ],
    [
      'a net sysctl with the host network',
      { hostNetwork: true, ...sysctls('net.core.somaxconn') },
      [
        `spec.securityContext.sysctls[0].name: Invalid value: "net.core.somaxconn": may not be specified when 'hostNetwork' is true`,
      ],
    ],
    [
      'an IPC sysctl with the host IPC namespace',
      { hostIPC: true, ...sysctls('fs.mqueue.msg_max', 'kernel.sem', 'net.ipv4.ip_forward') },
      [
        `spec.securityContext.sysctls[0].name: Invalid value: "fs.mqueue.msg_max": may not be specified when 'hostIPC' is true`,
        `spec.securityContext.sysctls[1].name: Invalid value: "kernel.sem": may not be specified when 'hostIPC' is true`,
      ],
    ],
  ])('%s', (_name, extra, expected) => {
    expect(causeLines(validatePodSpec(spec(extra), 'spec'))).toEqual(expected);
  });
});

describe('os', () => {
  it.each([
    ['a Linux pod', { os: { name: 'linux' }, securityContext: { runAsUser: 1 } }, {}, []],
    [
      'a Windows pod with Windows options',
      { os: { name: 'windows' }, securityContext: { windowsOptions: { runAsUserName: 'ContainerUser' } } },
      { securityContext: { windowsOptions: { hostProcess: false } } },
      [],
    ],
    ['an OS without a name', { os: {} }, {}, ['spec.os.name: Required value: cannot be empty']],
    [
      'an unknown OS',
      { os: { name: 'plan9' } },
      {},
      ['spec.os: Unsupported value: "plan9": supported values: "linux", "windows"'],
    ],
    [
      'a Windows pod with Linux-only pod fields',
      {
        os: { name: 'windows' },
        hostPID: true,
        securityContext: {
          seLinuxOptions: { level: 's0' },
          fsGroup: 1,
          sysctls: [{ name: 'a', value: 'b' }],
        },
      },
      {},
      [
        'spec.securityContext.seLinuxOptions: Forbidden: cannot be set for a windows pod',
        'spec.securityContext.fsGroup: Forbidden: cannot be set for a windows pod',
        'spec.securityContext.sysctls: Forbidden: cannot be set for a windows pod',
        'spec.hostPID: Forbidden: cannot be set for a windows pod',
      ],
    ],
    [
      'a Windows pod with Linux-only container fields',
      { os: { name: 'windows' } },
      { securityContext: { privileged: false, capabilities: {}, runAsUser: 0 } },
      [
        'spec.containers[0].securityContext.capabilities: Forbidden: cannot be set for a windows pod',
        'spec.containers[0].securityContext.privileged: Forbidden: cannot be set for a windows pod',
        'spec.containers[0].securityContext.runAsUser: Forbidden: cannot be set for a windows pod',
      ],
    ],
    [
      'a Linux pod with Windows options',
      { os: { name: 'linux' }, securityContext: { windowsOptions: {} } },
      { securityContext: { windowsOptions: {} } },
      [
        'spec.securityContext.windowsOptions: Forbidden: windows options cannot be set for a linux pod',
        'spec.containers[0].securityContext.windowsOptions: Forbidden: windows options cannot be set for a linux pod',
      ],
    ],
  ])('%s', (_name, extra, container, expected) => {
    expect(causeLines(validatePodSpec(spec(extra, container), 'spec'))).toEqual(expected);
  });
});

describe('AppArmor profiles', () => {
  const pod = (appArmorProfile: object) => spec({ securityContext: { appArmorProfile } });
  const container = (appArmorProfile: object) => spec({}, { securityContext: { appArmorProfile } });
  it.each([
    ['runtime default', { type: 'RuntimeDefault' }, []],
    ['unconfined', { type: 'Unconfined' }, []],
    ['a localhost profile', { type: 'Localhost', localhostProfile: 'k8s-apparmor-example-deny-write' }, []],
    ['no type', {}, ['P.type: Required value: type is required when appArmorProfile is set']],
    [
      'an unknown type',
      { type: 'Enforcing' },
      [
        'P.type: Unsupported value: "Enforcing": supported values: "Localhost", "RuntimeDefault", "Unconfined"',
      ],
    ],
    [
      'localhost without a profile',
      { type: 'Localhost' },
      ['P.localhostProfile: Required value: must be set when AppArmor type is Localhost'],
    ],
    [
      'localhost with a blank profile',
      { type: 'Localhost', localhostProfile: '' },
      ['P.localhostProfile: Required value: must be set when AppArmor type is Localhost'],
    ],
    [
      'localhost with a padded profile',
      { type: 'Localhost', localhostProfile: ' foo ' },
      ['P.localhostProfile: Invalid value: " foo ": must not be padded with whitespace'],
    ],
    [
      'localhost with a profile too long',
      { type: 'Localhost', localhostProfile: 'x'.repeat(4096) },
      ['P.localhostProfile: Too long: may not be more than 4095 bytes'],
    ],
    [
      'a profile name under runtime default',
      { type: 'RuntimeDefault', localhostProfile: 'foo' },
      ['P.localhostProfile: Invalid value: "foo": can only be set when AppArmor type is Localhost'],
    ],
  ])('%s, on the pod and on a container', (_name, profile, expected) => {
    expect(causeLines(validatePodSpec(pod(profile), 'spec'))).toEqual(
      expected.map((line) => line.replace('P.', 'spec.securityContext.appArmorProfile.')),
    );
    expect(causeLines(validatePodSpec(container(profile), 'spec'))).toEqual(
      expected.map((line) => line.replace('P.', 'spec.containers[0].securityContext.appArmorProfile.')),
    );
  });
});
