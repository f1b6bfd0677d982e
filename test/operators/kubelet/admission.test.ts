// Tests of the kubelet's pod admission: cases ported from kubelet_test.go (TestHandle*) and lifecycle/predicate_test.go.
import { describe, expect, it } from 'vitest';
import type { Container, Node, Pod, PodSpec } from '../../../operators/api/core-v1.ts';
import {
  type AdmitResult,
  admitPod,
  admitPodSafely,
  generalPredicateFailures,
} from '../../../operators/kubelet/admission.ts';
import { NodeInfo } from '../../../operators/scheduling/framework/node-info.ts';

function node(
  allocatable: Record<string, string | number>,
  extra: { labels?: Record<string, string>; taints?: NonNullable<Node['spec']>['taints'] } = {},
): Node {
  return {
    metadata: { name: 'testnode', ...(extra.labels ? { labels: extra.labels } : {}) },
    spec: extra.taints ? { taints: extra.taints } : {},
    status: { allocatable, capacity: allocatable },
  };
}

function pod(
  uid: string,
  name: string,
  spec: Partial<PodSpec> = {},
  meta: Partial<Pod['metadata']> = {},
): Pod {
  return {
    metadata: { uid, name, namespace: 'foo', ...meta },
    spec: { containers: [{ name: 'c' }], ...spec },
  };
}

function requesting(requests: Record<string, string>, extra: Partial<Container> = {}): Partial<PodSpec> {
  return { containers: [{ name: 'c', resources: { requests }, ...extra }] };
}

const refused = (reason: string, message: string): AdmitResult => ({ admit: false, reason, message });

describe('admitPod (kubelet_test.go TestHandle*)', () => {
  it('refuses the second of two pods wanting the same host port (TestHandlePortConflicts)', () => {
    const n = node({ pods: 110 });
    const ports = { containers: [{ name: 'c', ports: [{ containerPort: 80, hostPort: 80 }] }] };
    const first = pod('987654321', 'oldpod', ports);
    const second = pod('123456789', 'newpod', ports);
    expect(admitPod(first, n, [])).toEqual({ admit: true });
    expect(admitPod(second, n, [first])).toEqual(
      refused(
        'NodePorts',
        "Predicate NodePorts failed: node(s) didn't have free ports for the requested pod ports",
      ),
    );
  });

  it('admits pods on other host ports, protocols or host IPs', () => {
    const n = node({ pods: 110 });
    const port = (hostPort: number, protocol = 'TCP', hostIP?: string) => ({
      containers: [
        { name: 'c', ports: [{ containerPort: 80, hostPort, protocol, ...(hostIP ? { hostIP } : {}) }] },
      ],
    });
    const a = pod('a', 'a', port(80, 'TCP', '10.0.0.1'));
    expect(admitPod(pod('b', 'b', port(81)), n, [a]).admit).toBe(true);
    expect(admitPod(pod('b', 'b', port(80, 'UDP')), n, [a]).admit).toBe(true);
    expect(admitPod(pod('b', 'b', port(80, 'TCP', '10.0.0.2')), n, [a]).admit).toBe(true);
    // the wildcard address conflicts with every address
    expect(admitPod(pod('b', 'b', port(80)), n, [a]).admit).toBe(false);
  });

  it.each([
    ['a selector the node does not satisfy', { key: 'A' }, false],
    ['a selector the node satisfies', { key: 'B' }, true],
    ['no selector', undefined, true],
  ])('node selector: %s (TestHandleNodeSelector)', (_name, selector, admitted) => {
    const n = node({ pods: 110 }, { labels: { key: 'B' } });
    const result = admitPod(pod('1', 'podA', selector ? { nodeSelector: selector } : {}), n, []);
    expect(result).toEqual(
      admitted
        ? { admit: true }
        : refused(
            'NodeAffinity',
            "Predicate NodeAffinity failed: node(s) didn't match Pod's node affinity/selector",
          ),
    );
  });

  it.each([
    ['the pod asks for the node OS', { 'kubernetes.io/os': 'linux' }, 'linux', true],
    ['the pod asks for another OS', { 'kubernetes.io/os': 'windows' }, 'linux', false],
    ['the node label is wrong but the host OS matches', { 'kubernetes.io/os': 'linux' }, 'linux', true],
    ['the pod has no OS label', undefined, 'linux', true],
  ])('OS label: %s (TestHandleNodeSelectorBasedOnOS)', (_name, labels, hostOs, admitted) => {
    const n = node({ pods: 110 }, { labels: { 'kubernetes.io/os': 'windows' } });
    const result = admitPod(pod('1', 'p', {}, labels ? { labels } : {}), n, [], { hostOs });
    expect(result).toEqual(
      admitted
        ? { admit: true }
        : refused(
            'PodOSSelectorNodeLabelDoesNotMatch',
            "Failed to admit pod as the `kubernetes.io/os` label doesn't match node label",
          ),
    );
  });

  it('refuses a pod whose spec.os is another OS (TestRejectPodAdmissionBasedOnOSField)', () => {
    const n = node({ pods: 110 });
    expect(admitPod(pod('1', 'p', { os: { name: 'windows' } }), n, [])).toEqual(
      refused('PodOSNotSupported', "Failed to admit pod as the OS field doesn't match node OS"),
    );
    expect(admitPod(pod('1', 'p', { os: { name: 'linux' } }), n, []).admit).toBe(true);
  });

  it('refuses the newer pod when memory runs out (TestHandleMemExceeded)', () => {
    const n = node({ cpu: '10m', memory: 100, pods: 40 });
    const spec = { nodeName: 'testnode', ...requesting({ memory: '90' }) };
    const oldPod = pod('987654321', 'oldpod', spec);
    const newPod = pod('123456789', 'newpod', spec);
    expect(admitPod(oldPod, n, [])).toEqual({ admit: true });
    expect(admitPod(newPod, n, [oldPod])).toEqual(
      refused(
        'OutOfmemory',
        "Node didn't have enough resource: memory, requested: 90, used: 90, capacity: 100",
      ),
    );
  });

  it('refuses a pod asking for more cpu than the node has', () => {
    const n = node({ cpu: '1', memory: '1Gi', pods: 110 });
    expect(admitPod(pod('1', 'big', requesting({ cpu: '2' })), n, [])).toEqual(
      refused('OutOfcpu', "Node didn't have enough resource: cpu, requested: 2000, used: 0, capacity: 1000"),
    );
  });

  it('refuses a pod when the node is full of pods', () => {
    const n = node({ pods: 2 });
    const admitted = [pod('a', 'a'), pod('b', 'b')];
    expect(admitPod(pod('c', 'c'), n, admitted)).toEqual(
      refused('OutOfpods', "Node didn't have enough resource: pods, requested: 1, used: 2, capacity: 2"),
    );
  });

  it('does not count the pod itself among the admitted pods', () => {
    const n = node({ pods: 1, memory: 100 });
    const p = pod('a', 'a', requesting({ memory: '90' }));
    expect(admitPod(p, n, [p])).toEqual({ admit: true });
  });

  it('ephemeral storage runs out as OutOfephemeral-storage', () => {
    const n = node({ pods: 10, 'ephemeral-storage': '1Gi' });
    expect(admitPod(pod('1', 'p', requesting({ 'ephemeral-storage': '2Gi' })), n, [])).toEqual(
      refused(
        'OutOfephemeral-storage',
        "Node didn't have enough resource: ephemeral-storage, requested: 2147483648, used: 0, capacity: 1073741824",
      ),
    );
  });

  it.each([
    ['an extended resource the node lacks is ignored (cluster-level)', { 'example.com/foo': '1' }, undefined],
    ['an extended resource within capacity fits', { 'example.com/gpu': '1' }, undefined],
    [
      'an extended resource beyond capacity is refused with OutOf<name>',
      { 'example.com/gpu': '3' },
      refused(
        'OutOfexample.com/gpu',
        "Node didn't have enough resource: example.com/gpu, requested: 3, used: 0, capacity: 2",
      ),
    ],
  ])('%s (TestHandlePluginResources)', (_name, requests, expected) => {
    const n = node({ pods: 10, 'example.com/gpu': 2 });
    expect(admitPod(pod('1', 'p', requesting(requests)), n, [])).toEqual(expected ?? { admit: true });
  });

  it('a pod bound to another node by name is refused with NodeName', () => {
    const n = node({ pods: 10 });
    expect(admitPod(pod('1', 'p', { nodeName: 'other' }), n, [])).toEqual(
      refused('NodeName', "Predicate NodeName failed: node(s) didn't match the requested node name"),
    );
  });

  it('refuses a pod that does not tolerate a NoExecute taint; NoSchedule taints and static pods pass', () => {
    const noExecute = node({ pods: 10 }, { taints: [{ key: 'k', value: 'v', effect: 'NoExecute' }] });
    const noSchedule = node({ pods: 10 }, { taints: [{ key: 'k', value: 'v', effect: 'NoSchedule' }] });
    const taintMessage = "Predicate TaintToleration failed: node(s) had taints that the pod didn't tolerate";
    expect(admitPod(pod('1', 'p'), noExecute, [])).toEqual(refused('TaintToleration', taintMessage));
    expect(admitPod(pod('1', 'p'), noSchedule, [])).toEqual({ admit: true });
    const tolerating = pod('1', 'p', { tolerations: [{ key: 'k', operator: 'Equal', value: 'v' }] });
    expect(admitPod(tolerating, noExecute, [])).toEqual({ admit: true });
    const everything = pod('1', 'p', { tolerations: [{ operator: 'Exists' }] });
    expect(admitPod(everything, noExecute, [])).toEqual({ admit: true });
    const wrongValue = pod('1', 'p', { tolerations: [{ key: 'k', value: 'w', effect: 'NoExecute' }] });
    expect(admitPod(wrongValue, noExecute, [])).toEqual(refused('TaintToleration', taintMessage));
    const staticPod = pod('1', 'p', {}, { annotations: { 'kubernetes.io/config.source': 'file' } });
    expect(admitPod(staticPod, noExecute, [])).toEqual({ admit: true });
  });

  it('answers InvalidNodeInfo without a node', () => {
    expect(admitPod(pod('1', 'p'), undefined, [])).toEqual(
      refused('InvalidNodeInfo', 'Kubelet cannot get node info.'),
    );
  });

  it('turns an unparsable quantity into UnexpectedAdmissionError with admitPodSafely', () => {
    const result = admitPodSafely(pod('1', 'p', requesting({ cpu: 'lots' })), node({ pods: 10, cpu: 1 }), []);
    expect(result.admit).toBe(false);
    expect(result.admit === false && result.reason).toBe('UnexpectedAdmissionError');
    expect(result.admit === false && result.message).toContain('lots');
  });
});

describe('generalPredicateFailures (predicate_test.go TestGeneralPredicates)', () => {
  const n = node({ cpu: '10m', memory: 20, pods: 32 });
  it.each([
    ['no resources, ports or host requested always fits', pod('1', 'p'), [], []],
    [
      'not enough cpu and memory: both reported, cpu first',
      pod('1', 'p', requesting({ cpu: '8m', memory: '10' })),
      [pod('2', 'q', requesting({ cpu: '5m', memory: '19' }))],
      [
        { kind: 'insufficient', resource: 'cpu', requested: 8, used: 5, capacity: 10 },
        { kind: 'insufficient', resource: 'memory', requested: 10, used: 19, capacity: 20 },
      ],
    ],
    [
      'host not matching',
      pod('1', 'p', { nodeName: 'foo' }),
      [],
      [{ kind: 'predicate', name: 'NodeName', reason: "node(s) didn't match the requested node name" }],
    ],
    [
      'host port conflict',
      pod('1', 'p', { containers: [{ name: 'c', ports: [{ containerPort: 123, hostPort: 123 }] }] }),
      [pod('2', 'q', { containers: [{ name: 'c', ports: [{ containerPort: 123, hostPort: 123 }] }] })],
      [
        {
          kind: 'predicate',
          name: 'NodePorts',
          reason: "node(s) didn't have free ports for the requested pod ports",
        },
      ],
    ],
  ])('%s', (_name, p, others, expected) => {
    expect(generalPredicateFailures(p, new NodeInfo(n, others))).toEqual(expected);
  });

  it.each([
    ['In matches', { key: 'zone', operator: 'In', values: ['a', 'b'] }, true],
    ['In misses', { key: 'zone', operator: 'In', values: ['c'] }, false],
    ['NotIn on an absent label matches', { key: 'missing', operator: 'NotIn', values: ['x'] }, true],
    ['Exists', { key: 'zone', operator: 'Exists' }, true],
    ['DoesNotExist', { key: 'zone', operator: 'DoesNotExist' }, false],
    ['Gt', { key: 'gen', operator: 'Gt', values: ['3'] }, true],
    ['Lt', { key: 'gen', operator: 'Lt', values: ['3'] }, false],
    ['Gt on a non-integer value', { key: 'zone', operator: 'Gt', values: ['3'] }, false],
  ])('required node affinity expression: %s', (_name, expression, admitted) => {
    const labelled = node({ pods: 10 }, { labels: { zone: 'a', gen: '5' } });
    const p = pod('1', 'p', {
      affinity: {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [{ matchExpressions: [expression] }],
          },
        },
      },
    });
    expect(admitPod(p, labelled, []).admit).toBe(admitted);
  });

  it('required node affinity: terms are ORed, matchFields knows metadata.name, an empty term matches nothing', () => {
    const labelled = node({ pods: 10 }, { labels: { zone: 'a' } });
    const withTerms = (terms: object[]) =>
      pod('1', 'p', {
        affinity: {
          nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms } },
        },
      } as Partial<PodSpec>);
    const miss = { matchExpressions: [{ key: 'zone', operator: 'In', values: ['z'] }] };
    const hitByName = { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['testnode'] }] };
    expect(admitPod(withTerms([miss, hitByName]), labelled, []).admit).toBe(true);
    expect(admitPod(withTerms([miss]), labelled, []).admit).toBe(false);
    expect(admitPod(withTerms([{}]), labelled, []).admit).toBe(false);
    expect(admitPod(withTerms([]), labelled, []).admit).toBe(false);
  });
});
