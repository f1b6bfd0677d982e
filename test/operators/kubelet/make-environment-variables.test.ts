// makeEnvironmentVariables: cases ported from the kubelet's TestMakeEnvironmentVariables, in our own words.
import { describe, expect, it } from 'vitest';
import type { Container, Pod } from '../../../operators/api/core-v1.ts';
import {
  type EnvSources,
  envReferences,
  expandContainerCommand,
  makeEnvironmentVariables,
} from '../../../operators/kubelet/make-environment-variables.ts';

const basePod = (container: Container): Pod => ({
  metadata: {
    name: 'dapi-test-pod-name',
    namespace: 'test1',
    uid: 'uid-1',
    labels: { app: 'web', tier: 'front' },
    annotations: { owner: 'me' },
  },
  spec: { nodeName: 'node-name', serviceAccountName: 'special', containers: [container] },
});

const sources: EnvSources = {
  configMaps: new Map([
    ['test-configmap', { data: { REPLACE_ME: 'FROM_CONFIG_MAP', DUPE_TEST: 'CONFIG_MAP' } }],
    ['missing', undefined],
  ]),
  secrets: new Map([
    ['test-secret', { data: { REPLACE_ME: 'FROM_SECRET', DUPE_TEST: 'SECRET' } }],
    ['missing', undefined],
  ]),
};

describe('makeEnvironmentVariables', () => {
  it.each<[string, Container, { key: string; value: string }[] | string]>([
    [
      'plain values and references to earlier ones',
      {
        name: 'c',
        env: [
          { name: 'FOO', value: 'BAR' },
          { name: 'TEST', value: '$(FOO)-$(UNKNOWN)' },
        ],
      },
      [
        { key: 'FOO', value: 'BAR' },
        { key: 'TEST', value: 'BAR-$(UNKNOWN)' },
      ],
    ],
    [
      'downward API fields',
      {
        name: 'c',
        env: [
          { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
          { name: 'POD_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
          { name: 'POD_UID', valueFrom: { fieldRef: { fieldPath: 'metadata.uid' } } },
          { name: 'NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } },
          { name: 'SA', valueFrom: { fieldRef: { fieldPath: 'spec.serviceAccountName' } } },
          { name: 'POD_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
          { name: 'HOST_IP', valueFrom: { fieldRef: { fieldPath: 'status.hostIP' } } },
          { name: 'APP', valueFrom: { fieldRef: { fieldPath: "metadata.labels['app']" } } },
          { name: 'LABELS', valueFrom: { fieldRef: { fieldPath: 'metadata.labels' } } },
        ],
      },
      [
        { key: 'POD_NAME', value: 'dapi-test-pod-name' },
        { key: 'POD_NAMESPACE', value: 'test1' },
        { key: 'POD_UID', value: 'uid-1' },
        { key: 'NODE_NAME', value: 'node-name' },
        { key: 'SA', value: 'special' },
        { key: 'POD_IP', value: '1.2.3.4' },
        { key: 'HOST_IP', value: '5.6.7.8' },
        { key: 'APP', value: 'web' },
        { key: 'LABELS', value: 'app="web"\ntier="front"' },
      ],
    ],
    [
      'an unsupported field path fails',
      { name: 'c', env: [{ name: 'X', valueFrom: { fieldRef: { fieldPath: 'spec.bogus' } } }] },
      'unsupported fieldPath: spec.bogus',
    ],
    [
      'configMap and secret keys',
      {
        name: 'c',
        env: [
          { name: 'CM', valueFrom: { configMapKeyRef: { name: 'test-configmap', key: 'REPLACE_ME' } } },
          { name: 'S', valueFrom: { secretKeyRef: { name: 'test-secret', key: 'REPLACE_ME' } } },
        ],
      },
      [
        { key: 'CM', value: 'FROM_CONFIG_MAP' },
        { key: 'S', value: 'FROM_SECRET' },
      ],
    ],
    [
      'a missing configMap fails',
      { name: 'c', env: [{ name: 'CM', valueFrom: { configMapKeyRef: { name: 'missing', key: 'k' } } }] },
      'configmap "missing" not found',
    ],
    [
      'a missing configMap key fails',
      {
        name: 'c',
        env: [{ name: 'CM', valueFrom: { configMapKeyRef: { name: 'test-configmap', key: 'nope' } } }],
      },
      "couldn't find key nope in ConfigMap test1/test-configmap",
    ],
    [
      'a missing secret key fails',
      { name: 'c', env: [{ name: 'S', valueFrom: { secretKeyRef: { name: 'test-secret', key: 'nope' } } }] },
      "couldn't find key nope in Secret test1/test-secret",
    ],
    [
      'optional missing references are skipped',
      {
        name: 'c',
        env: [
          { name: 'CM', valueFrom: { configMapKeyRef: { name: 'missing', key: 'k', optional: true } } },
          { name: 'K', valueFrom: { secretKeyRef: { name: 'test-secret', key: 'nope', optional: true } } },
        ],
        envFrom: [{ configMapRef: { name: 'missing', optional: true } }],
      },
      [],
    ],
    [
      'a missing envFrom secret fails',
      { name: 'c', envFrom: [{ secretRef: { name: 'missing' } }] },
      'secret "missing" not found',
    ],
    [
      'envFrom with prefix, env overrides in place',
      {
        name: 'c',
        envFrom: [
          { configMapRef: { name: 'test-configmap' }, prefix: 'p_' },
          { secretRef: { name: 'test-secret' } },
        ],
        env: [
          { name: 'DUPE_TEST', value: 'ENV_WINS' },
          { name: 'EXPANSION', value: '$(p_REPLACE_ME)' },
        ],
      },
      [
        { key: 'p_REPLACE_ME', value: 'FROM_CONFIG_MAP' },
        { key: 'p_DUPE_TEST', value: 'CONFIG_MAP' },
        { key: 'REPLACE_ME', value: 'FROM_SECRET' },
        { key: 'DUPE_TEST', value: 'ENV_WINS' },
        { key: 'EXPANSION', value: 'FROM_CONFIG_MAP' },
      ],
    ],
    [
      'resource fields, limits defaulting to the node allocatable',
      {
        name: 'c',
        resources: { requests: { cpu: '250m', memory: '64Mi' } },
        env: [
          { name: 'CPU_REQ', valueFrom: { resourceFieldRef: { resource: 'requests.cpu', divisor: '1m' } } },
          {
            name: 'MEM_REQ',
            valueFrom: { resourceFieldRef: { resource: 'requests.memory', divisor: '1Mi' } },
          },
          { name: 'CPU_LIMIT', valueFrom: { resourceFieldRef: { resource: 'limits.cpu' } } },
          { name: 'MEM_LIMIT', valueFrom: { resourceFieldRef: { resource: 'limits.memory' } } },
        ],
      },
      [
        { key: 'CPU_REQ', value: '250' },
        { key: 'MEM_REQ', value: '64' },
        { key: 'CPU_LIMIT', value: '4' },
        { key: 'MEM_LIMIT', value: '8589934592' },
      ],
    ],
  ])('%s', (_name, container, expected) => {
    const result = makeEnvironmentVariables(basePod(container), container, sources, {
      podIP: '1.2.3.4',
      hostIP: '5.6.7.8',
      allocatable: { cpu: '4', memory: '8Gi' },
    });
    if (typeof expected === 'string') expect(result).toEqual({ error: expected });
    else expect(result).toEqual({ env: expected });
  });

  it('lists the objects a container refers to', () => {
    const refs = envReferences({
      name: 'c',
      envFrom: [{ configMapRef: { name: 'a' } }, { secretRef: { name: 'b' } }],
      env: [{ name: 'X', valueFrom: { configMapKeyRef: { name: 'c', key: 'k' } } }],
    });
    expect([...refs.configMaps]).toEqual(['a', 'c']);
    expect([...refs.secrets]).toEqual(['b']);
  });

  it('expands command and args against the environment', () => {
    const container: Container = {
      name: 'c',
      command: ['sh', '-c', 'echo $(MSG)'],
      args: ['$(MISSING)', '$$(MSG)'],
    };
    expect(expandContainerCommand(container, [{ key: 'MSG', value: 'hi' }])).toEqual({
      command: ['sh', '-c', 'echo hi'],
      args: ['$(MISSING)', '$(MSG)'],
    });
  });
});
