// A pod's spec, with cases from upstream's TestValidatePodSpec, TestValidateContainers, TestValidatePorts, TestValidateEnv and probe tests.
import { describe, expect, it } from 'vitest';
import { validatePodSpec } from '../../../../../src/apiserver/builtin/validation/pod-spec-validation.ts';
import { causeLines } from './cause-lines.ts';

/** A pod spec with one container `c` (image nginx) carrying `container`'s fields, and `spec`'s. */
const podSpec = (container: object = {}, spec: object = {}) => ({
  containers: [{ name: 'c', image: 'nginx', ...container }],
  ...spec,
});
const c0 = 'spec.containers[0]';

describe('validatePodSpec: container ports', () => {
  it.each([
    [
      'named ports',
      [
        { name: 'http', containerPort: 80 },
        { name: 'metrics', containerPort: 9090, protocol: 'UDP' },
      ],
      [],
    ],
    ['a host port', [{ containerPort: 80, hostPort: 8080 }], []],
    ['no container port', [{ name: 'p' }], [`${c0}.ports[0].containerPort: Required value`]],
    ['container port 0', [{ containerPort: 0 }], [`${c0}.ports[0].containerPort: Required value`]],
    [
      'container port too large',
      [{ containerPort: 65536 }],
      [`${c0}.ports[0].containerPort: Invalid value: 65536: must be between 1 and 65535, inclusive`],
    ],
    [
      'a negative host port',
      [{ containerPort: 80, hostPort: -1 }],
      [`${c0}.ports[0].hostPort: Invalid value: -1: must be between 1 and 65535, inclusive`],
    ],
    [
      'a port name too long and with capitals',
      [{ name: 'Abcdefghijklmnop', containerPort: 80 }],
      [
        `${c0}.ports[0].name: Invalid value: "Abcdefghijklmnop": must be no more than 15 characters`,
        `${c0}.ports[0].name: Invalid value: "Abcdefghijklmnop": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)`,
      ],
    ],
    [
      'a port name of digits',
      [{ name: '80', containerPort: 80 }],
      [`${c0}.ports[0].name: Invalid value: "80": must contain at least one letter (a-z)`],
    ],
    [
      'a port name with double hyphens',
      [{ name: 'a--b', containerPort: 80 }],
      [`${c0}.ports[0].name: Invalid value: "a--b": must not contain consecutive hyphens (--)`],
    ],
    [
      'a port name ending in a hyphen',
      [{ name: 'ab-', containerPort: 80 }],
      [`${c0}.ports[0].name: Invalid value: "ab-": must not begin or end with a hyphen (-)`],
    ],
    [
      'a repeated port name',
      [
        { name: 'http', containerPort: 80 },
        { name: 'http', containerPort: 81 },
      ],
      [`${c0}.ports[1].name: Duplicate value: "http"`],
    ],
    [
      'a repeated host port',
      [
        { containerPort: 80, hostPort: 8080 },
        { containerPort: 81, hostPort: 8080 },
      ],
      [`${c0}.ports[1].hostPort: Duplicate value: "TCP//8080"`],
    ],
    [
      'one host port under two protocols',
      [
        { containerPort: 53, hostPort: 53 },
        { containerPort: 53, hostPort: 53, protocol: 'UDP' },
      ],
      [],
    ],
  ])('%s', (_name, ports, expected) => {
    expect(causeLines(validatePodSpec(podSpec({ ports }), 'spec'))).toEqual(expected);
  });

  it('under hostNetwork a host port must equal its container port', () => {
    expect(
      causeLines(
        validatePodSpec(
          podSpec({ ports: [{ containerPort: 80, hostPort: 81 }] }, { hostNetwork: true }),
          'spec',
        ),
      ),
    ).toEqual([
      `${c0}.ports[0].hostPort: Invalid value: 81: must match \`containerPort\` when \`hostNetwork\` is true`,
    ]);
    expect(
      validatePodSpec(podSpec({ ports: [{ containerPort: 80 }] }, { hostNetwork: true }), 'spec'),
    ).toEqual([]);
  });

  it('host ports are unique across the pod’s containers', () => {
    const spec = {
      containers: [
        { name: 'a', image: 'i', ports: [{ containerPort: 80, hostPort: 80 }] },
        { name: 'b', image: 'i', ports: [{ containerPort: 80, hostPort: 80 }] },
      ],
    };
    expect(causeLines(validatePodSpec(spec, 'spec'))).toEqual([
      'spec.containers[1].ports[0].hostPort: Duplicate value: "TCP//80"',
    ]);
  });
});

describe('validatePodSpec: environment', () => {
  const from = (valueFrom: object, extra: object = {}) => ({ env: [{ name: 'X', valueFrom, ...extra }] });
  const e0 = `${c0}.env[0]`;
  it.each([
    ['a literal value', { env: [{ name: 'A_B.c-d', value: 'x' }] }, []],
    ['a relaxed name', { env: [{ name: '1st value', value: 'x' }] }, []],
    ['a field reference', from({ fieldRef: { fieldPath: 'metadata.name' } }), []],
    ['a label reference', from({ fieldRef: { fieldPath: "metadata.labels['app']" } }), []],
    ['a resource reference', from({ resourceFieldRef: { resource: 'limits.memory' } }), []],
    ['a secret key', from({ secretKeyRef: { name: 's', key: 'password' } }), []],
    ['envFrom a ConfigMap', { envFrom: [{ configMapRef: { name: 'cm' }, prefix: 'CM_' }] }, []],
    ['no name', { env: [{ value: 'x' }] }, [`${e0}.name: Required value`]],
    [
      'a name with =',
      { env: [{ name: 'A=B' }] },
      [
        `${e0}.name: Invalid value: "A=B": a valid environment variable name must consist only of printable ASCII characters other than '='`,
      ],
    ],
    [
      'an empty valueFrom',
      from({}),
      [
        `${e0}.valueFrom: Invalid value: "": must specify one of: \`fieldRef\`, \`resourceFieldRef\`, \`configMapKeyRef\` or \`secretKeyRef\``,
      ],
    ],
    [
      'a value and a valueFrom',
      from({ fieldRef: { fieldPath: 'metadata.name' } }, { value: 'x' }),
      [`${e0}.valueFrom: Invalid value: "": may not be specified when \`value\` is not empty`],
    ],
    [
      'two sources',
      from({ fieldRef: { fieldPath: 'metadata.name' }, secretKeyRef: { name: 's', key: 'k' } }),
      [`${e0}.valueFrom: Invalid value: "": may not have more than one field specified at a time`],
    ],
    [
      'a field the environment cannot read',
      from({ fieldRef: { fieldPath: 'status.phase' } }),
      [
        `${e0}.valueFrom.fieldRef.fieldPath: Unsupported value: "status.phase": supported values: "metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.serviceAccountName", "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs"`,
      ],
    ],
    [
      'a field no pod has',
      from({ fieldRef: { fieldPath: 'spec.nothing' } }),
      [
        `${e0}.valueFrom.fieldRef.fieldPath: Invalid value: "spec.nothing": error converting fieldPath: field label not supported: spec.nothing`,
      ],
    ],
    [
      'an unknown resource',
      from({ resourceFieldRef: { resource: 'limits.gpu' } }),
      [
        `${e0}.valueFrom.resourceFieldRef.resource: Unsupported value: "limits.gpu": supported values: "limits.cpu", "limits.ephemeral-storage", "limits.memory", "requests.cpu", "requests.ephemeral-storage", "requests.memory"`,
      ],
    ],
    [
      'a key selector without a key',
      from({ configMapKeyRef: { name: 'cm' } }),
      [`${e0}.valueFrom.configMapKeyRef.key: Required value`],
    ],
    [
      'a key that is not a config key',
      from({ secretKeyRef: { name: 's', key: 'a/b' } }),
      [
        `${e0}.valueFrom.secretKeyRef.key: Invalid value: "a/b": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key_name', regex used for validation is '[-._a-zA-Z0-9]+')`,
      ],
    ],
    [
      'envFrom with no source',
      { envFrom: [{ prefix: 'P_' }] },
      [`${c0}.envFrom: Invalid value: "": must specify one of: \`configMapRef\` or \`secretRef\``],
    ],
    [
      'envFrom with two sources',
      { envFrom: [{ configMapRef: { name: 'a' }, secretRef: { name: 'b' } }] },
      [`${c0}.envFrom: Invalid value: "": may not have more than one field specified at a time`],
    ],
  ])('%s', (_name, container, expected) => {
    expect(causeLines(validatePodSpec(podSpec(container), 'spec'))).toEqual(expected);
  });
});

describe('validatePodSpec: probes and lifecycle hooks', () => {
  const http = { httpGet: { path: '/healthz', port: 8080 } };
  it.each([
    ['an http probe', { livenessProbe: http }, []],
    ['a named port', { readinessProbe: { tcpSocket: { port: 'http' } } }, []],
    ['a grpc probe', { startupProbe: { grpc: { port: 9000 } } }, []],
    [
      'a readiness probe that needs three successes',
      { readinessProbe: { ...http, successThreshold: 3 } },
      [],
    ],
    ['a preStop sleep', { lifecycle: { preStop: { sleep: { seconds: 5 } } } }, []],
    [
      'a probe without a handler',
      { livenessProbe: { periodSeconds: 5 } },
      [`${c0}.livenessProbe: Required value: must specify a handler type`],
    ],
    [
      'a probe with two handlers',
      { livenessProbe: { ...http, tcpSocket: { port: 80 } } },
      [`${c0}.livenessProbe.tcpSocket: Forbidden: may not specify more than 1 handler type`],
    ],
    [
      'negative timings',
      { readinessProbe: { ...http, periodSeconds: -1, failureThreshold: -2 } },
      [
        `${c0}.readinessProbe.periodSeconds: Invalid value: -1: must be greater than or equal to 0`,
        `${c0}.readinessProbe.failureThreshold: Invalid value: -2: must be greater than or equal to 0`,
      ],
    ],
    [
      'a liveness probe that needs two successes',
      { livenessProbe: { ...http, successThreshold: 2 } },
      [`${c0}.livenessProbe.successThreshold: Invalid value: 2: must be 1`],
    ],
    [
      'a port out of range',
      { livenessProbe: { httpGet: { path: '/', port: 0 } } },
      [`${c0}.livenessProbe.httpGet.port: Invalid value: 0: must be between 1 and 65535, inclusive`],
    ],
    [
      'an unknown scheme',
      { livenessProbe: { httpGet: { path: '/', port: 80, scheme: 'FTP' } } },
      [`${c0}.livenessProbe.httpGet.scheme: Unsupported value: "FTP": supported values: "HTTP", "HTTPS"`],
    ],
    [
      'an exec probe without a command',
      { livenessProbe: { exec: {} } },
      [`${c0}.livenessProbe.exec.command: Required value`],
    ],
    [
      'a probe grace period of 0',
      { livenessProbe: { ...http, terminationGracePeriodSeconds: 0 } },
      [`${c0}.livenessProbe.terminationGracePeriodSeconds: Invalid value: 0: must be greater than 0`],
    ],
    [
      'a readiness probe with a grace period',
      { readinessProbe: { ...http, terminationGracePeriodSeconds: 10 } },
      [
        `${c0}.readinessProbe.terminationGracePeriodSeconds: Invalid value: 10: must not be set for readinessProbes`,
      ],
    ],
    [
      'a sleep longer than the grace period',
      { lifecycle: { preStop: { sleep: { seconds: 40 } } } },
      [
        `${c0}.lifecycle.preStop.sleep: Invalid value: 40: must be greater than 0 and less than terminationGracePeriodSeconds (30)`,
      ],
    ],
    [
      'a sleep in a probe',
      { livenessProbe: { sleep: { seconds: 1 } } },
      [`${c0}.livenessProbe: Required value: must specify a handler type`],
    ],
    [
      'an image with a trailing space',
      { image: 'nginx ' },
      [`${c0}.image: Invalid value: "nginx ": must not have leading or trailing whitespace`],
    ],
    [
      'a container restartPolicy',
      { restartPolicy: 'Always' },
      [`${c0}.restartPolicy: Forbidden: may not be set for non-init containers`],
    ],
  ])('%s', (_name, container, expected) => {
    expect(causeLines(validatePodSpec(podSpec(container), 'spec'))).toEqual(expected);
  });

  it('init containers take probes and hooks only as sidecars, and no other restartPolicy', () => {
    const spec = podSpec(
      {},
      {
        initContainers: [
          { name: 'init', image: 'i', readinessProbe: { exec: { command: ['true'] } } },
          {
            name: 'sidecar',
            image: 'i',
            restartPolicy: 'Always',
            readinessProbe: { exec: { command: ['true'] } },
          },
          { name: 'odd', image: 'i', restartPolicy: 'Never' },
          { name: 'c', image: 'i' },
        ],
      },
    );
    expect(causeLines(validatePodSpec(spec, 'spec'))).toEqual([
      'spec.initContainers[0].readinessProbe: Forbidden: may not be set for init containers without restartPolicy=Always',
      'spec.initContainers[2].restartPolicy: Unsupported value: "Never": supported values: "Always"',
      'spec.initContainers[3].name: Duplicate value: "c"',
    ]);
  });
});

describe('validatePodSpec: volume mounts', () => {
  const volumes = [{ name: 'data', emptyDir: {} }];
  it.each([
    ['a mount of a declared volume', [{ name: 'data', mountPath: '/data', subPath: 'a/b' }], []],
    [
      'a mount of no volume',
      [{ name: 'other', mountPath: '/x' }],
      [`${c0}.volumeMounts[0].name: Not found: "other"`],
    ],
    ['no mount path', [{ name: 'data' }], [`${c0}.volumeMounts[0].mountPath: Required value`]],
    [
      'two mounts at one path',
      [
        { name: 'data', mountPath: '/d' },
        { name: 'data', mountPath: '/d' },
      ],
      [`${c0}.volumeMounts[1].mountPath: Invalid value: "/d": must be unique`],
    ],
    [
      'an absolute subPath that climbs',
      [{ name: 'data', mountPath: '/d', subPath: '/../etc' }],
      [
        `${c0}.volumeMounts[0].subPath: Invalid value: "/../etc": must be a relative path`,
        `${c0}.volumeMounts[0].subPath: Invalid value: "/../etc": must not contain '..'`,
      ],
    ],
    [
      'subPath and subPathExpr',
      [{ name: 'data', mountPath: '/d', subPath: 'a', subPathExpr: '$(POD)' }],
      [
        `${c0}.volumeMounts[0].subPathExpr: Invalid value: "$(POD)": subPathExpr and subPath are mutually exclusive`,
      ],
    ],
  ])('%s', (_name, volumeMounts, expected) => {
    expect(causeLines(validatePodSpec(podSpec({ volumeMounts }, { volumes }), 'spec'))).toEqual(expected);
  });
});

describe('validatePodSpec: pod-level fields', () => {
  it.each([
    ['a plain pod', {}, []],
    [
      'activeDeadlineSeconds of 0',
      { activeDeadlineSeconds: 0 },
      ['spec.activeDeadlineSeconds: Invalid value: 0: must be between 1 and 2147483647, inclusive'],
    ],
    [
      'a node selector with a bad value',
      { nodeSelector: { disk: 'fast ssd' } },
      [
        `spec.nodeSelector: Invalid value: "fast ssd": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character`,
      ],
    ],
    [
      'a service account name with capitals',
      { serviceAccountName: 'Builder' },
      [
        `spec.serviceAccountName: Invalid value: "Builder": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      ],
    ],
    [
      'a hostname with a dot',
      { hostname: 'a.b' },
      [
        `spec.hostname: Invalid value: "a.b": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
      ],
    ],
    [
      'dnsPolicy None without a config',
      { dnsPolicy: 'None' },
      ['spec.dnsConfig: Required value: must provide `dnsConfig` when `dnsPolicy` is None'],
    ],
    [
      'dnsPolicy None with a nameserver',
      { dnsPolicy: 'None', dnsConfig: { nameservers: ['1.1.1.1'], searches: ['svc.cluster.local.'] } },
      [],
    ],
    [
      'dnsPolicy None without nameservers',
      { dnsPolicy: 'None', dnsConfig: { searches: ['a'] } },
      [
        'spec.dnsConfig.nameservers: Required value: must provide at least one DNS nameserver when `dnsPolicy` is None',
      ],
    ],
    [
      'four nameservers, one not an address, a bad search and a nameless option',
      {
        dnsConfig: {
          nameservers: ['1.1.1.1', '8.8.8.8', '9.9.9.9', 'dns'],
          searches: ['A_B'],
          options: [{ value: '2' }],
        },
      },
      [
        'spec.dnsConfig.nameservers: Invalid value: ["1.1.1.1","8.8.8.8","9.9.9.9","dns"]: must not have more than 3 nameservers',
        'spec.dnsConfig.nameservers[3]: Invalid value: "dns": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
        `spec.dnsConfig.searches[0]: Invalid value: "A_B": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
        'spec.dnsConfig.options[0]: Required value: Option.Name must not be empty',
      ],
    ],
    ['a toleration of everything', { tolerations: [{ operator: 'Exists' }] }, []],
    ['a scheduling gate', { schedulingGates: [{ name: 'example.com/quota' }] }, []],
    [
      'a gated pod already bound',
      { schedulingGates: [{ name: 'wait' }], nodeName: 'n1' },
      ['spec.nodeName: Forbidden: cannot be set until all schedulingGates have been cleared'],
    ],
    [
      'a toleration with an empty key and Equal',
      { tolerations: [{ operator: 'Equal', value: 'x' }] },
      [
        'spec.tolerations[0].operator: Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys"',
      ],
    ],
    [
      'Exists with a value',
      { tolerations: [{ key: 'k', operator: 'Exists', value: 'v' }] },
      ['spec.tolerations[0].operator: Invalid value: "v": value must be empty when `operator` is \'Exists\''],
    ],
    [
      'tolerationSeconds without NoExecute',
      { tolerations: [{ key: 'k', operator: 'Exists', effect: 'NoSchedule', tolerationSeconds: 10 }] },
      [
        'spec.tolerations[0].effect: Invalid value: "NoSchedule": effect must be \'NoExecute\' when `tolerationSeconds` is set',
      ],
    ],
    [
      'spread constraints with a zero skew, no key and a repeat',
      {
        topologySpreadConstraints: [
          { maxSkew: 0, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule' },
          { maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule' },
          { maxSkew: 1, whenUnsatisfiable: 'ScheduleAnyway', minDomains: 2 },
        ],
      },
      [
        'spec.topologySpreadConstraints[0].maxSkew: Invalid value: 0: must be greater than zero',
        'spec.topologySpreadConstraints[0].{topologyKey, whenUnsatisfiable}: Duplicate value: "{zone, DoNotSchedule}"',
        'spec.topologySpreadConstraints[2].topologyKey: Required value: can not be empty',
        'spec.topologySpreadConstraints[2].minDomains: Invalid value: 2: can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ScheduleAnyway',
      ],
    ],
    [
      'a required node affinity with no terms, a pod affinity term with no key',
      {
        affinity: {
          nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [] } },
          podAntiAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: {} }],
            preferredDuringSchedulingIgnoredDuringExecution: [
              { weight: 0, podAffinityTerm: { topologyKey: 'zone' } },
            ],
          },
        },
      },
      [
        'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms: Required value: must have at least one node selector term',
        'spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Required value: can not be empty',
        'spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 0: must be in the range 1-100',
      ],
    ],
  ])('%s', (_name, spec, expected) => {
    expect(causeLines(validatePodSpec(podSpec({}, spec), 'spec'))).toEqual(expected);
  });

  it('checks names and images only when asked (a CronJob’s template)', () => {
    const spec = { containers: [{ name: 'Bad' }, { name: 'ok', image: 'i' }, { name: 'ok', image: 'i' }] };
    expect(validatePodSpec(spec, 'spec')).toEqual([]);
    expect(causeLines(validatePodSpec(spec, 't', { names: true }))).toEqual([
      `t.containers[0].name: Invalid value: "Bad": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
      't.containers[0].image: Required value',
      't.containers[2].name: Duplicate value: "ok"',
    ]);
    expect(causeLines(validatePodSpec({}, 't', { names: true }))).toEqual(['t.containers: Required value']);
  });
});
