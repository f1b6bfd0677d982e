// decodeStaticPods: the cases of common_test.go, http_test.go's invalid pods and file_test.go's expected defaults.
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import {
  applyStaticPodDefaults,
  staticPodName,
} from '../../../operators/pod-config/apply-static-pod-defaults.ts';
import { decodeStaticPods } from '../../../operators/pod-config/decode-static-pods.ts';
import type { Pod } from '../../../operators/pod-config/types.ts';
import { validateStaticPod } from '../../../operators/pod-config/validate-static-pod.ts';

const NODE = 'random-test-hostname';
const fileOrigin = { source: '/etc/kubernetes/manifests/test.yaml', kind: 'file' as const, nodeName: NODE };
const urlOrigin = {
  source: 'http://example.invalid/pods',
  kind: 'url' as const,
  nodeName: NODE,
  allowList: true,
};

const manifest = (overrides: Partial<Pod> = {}): Pod => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'test', uid: '12345', namespace: 'mynamespace' },
  spec: { containers: [{ name: 'image', image: 'test/image' }] },
  ...overrides,
});

describe('decodeStaticPods', () => {
  it('applies the defaults a static pod gets from a file (file_test.go "Simple pod")', () => {
    const result = decodeStaticPods(JSON.stringify(manifest()), fileOrigin);
    expect(result).toEqual({
      ok: true,
      pods: [
        {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: {
            name: `test-${NODE}`,
            uid: '12345',
            namespace: 'mynamespace',
            annotations: { 'kubernetes.io/config.hash': '12345' },
          },
          spec: {
            nodeName: NODE,
            restartPolicy: 'Always',
            dnsPolicy: 'ClusterFirst',
            terminationGracePeriodSeconds: 30,
            schedulerName: 'default-scheduler',
            enableServiceLinks: true,
            securityContext: {},
            tolerations: [{ operator: 'Exists', effect: 'NoExecute' }],
            containers: [
              {
                name: 'image',
                image: 'test/image',
                terminationMessagePath: '/dev/termination-log',
                terminationMessagePolicy: 'File',
                imagePullPolicy: 'Always',
              },
            ],
          },
          status: { phase: 'Pending' },
        },
      ],
    });
  });

  it('reads the same pod from YAML as from JSON (TestDecodeSinglePod)', () => {
    const fromJson = decodeStaticPods(JSON.stringify(manifest()), fileOrigin);
    const fromYaml = decodeStaticPods(stringify(manifest()), fileOrigin);
    expect(fromYaml).toEqual(fromJson);
  });

  it('reads a PodList from a URL, defaulting the namespace and without the file toleration (http_test.go "Multiple pods")', () => {
    const list = {
      apiVersion: 'v1',
      kind: 'PodList',
      items: [
        { metadata: { name: 'foo', uid: '111' }, spec: { containers: [{ name: '1', image: 'foo' }] } },
        { metadata: { name: 'bar', uid: '222' }, spec: { containers: [{ name: '2', image: 'bar:bartag' }] } },
      ],
    };
    const result = decodeStaticPods(JSON.stringify(list), { ...urlOrigin, nodeName: 'different-value' });
    expect(result.ok).toBe(true);
    const pods = result.ok ? result.pods : [];
    expect(pods.map((p) => [p.metadata?.name, p.metadata?.namespace, p.metadata?.uid])).toEqual([
      ['foo-different-value', 'default', '111'],
      ['bar-different-value', 'default', '222'],
    ]);
    expect(pods.map((p) => p.spec?.containers?.[0]?.imagePullPolicy)).toEqual(['Always', 'IfNotPresent']);
    expect(pods.every((p) => p.spec?.tolerations === undefined && p.status?.phase === 'Pending')).toBe(true);
  });

  it.each<[string, unknown, string | undefined]>([
    ['no version', { kind: 'Pod' }, 'apiVersion'],
    ['an invalid version', { apiVersion: 'v1betta2', kind: 'Pod' }, 'apiVersion'],
    ['not a pod', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'x' } }, 'kind'],
    [
      'no name',
      { apiVersion: 'v1', kind: 'Pod', metadata: {}, spec: { containers: [{ name: 'c', image: 'i' }] } },
      'metadata.name',
    ],
    [
      'an invalid volume name',
      manifest({ spec: { containers: [{ name: 'c', image: 'i' }], volumes: [{ name: '_INVALID_' }] } }),
      'spec.volumes[0].name',
    ],
    [
      'duplicate volume names',
      manifest({
        spec: {
          containers: [{ name: 'c', image: 'i' }],
          volumes: [{ name: 'repeated' }, { name: 'repeated' }],
        },
      }),
      'spec.volumes[1].name',
    ],
    [
      'an unspecified container name',
      manifest({ spec: { containers: [{ name: '', image: 'i' }] } }),
      'spec.containers[0].name',
    ],
    [
      'an invalid container name',
      manifest({ spec: { containers: [{ name: '_INVALID_', image: 'i' }] } }),
      'spec.containers[0].name',
    ],
    ['no containers', manifest({ spec: { containers: [] } }), 'spec.containers'],
    [
      'a container without an image',
      manifest({ spec: { containers: [{ name: 'c' }] } }),
      'spec.containers[0].image',
    ],
    [
      'an invalid namespace',
      manifest({ metadata: { name: 'test', namespace: 'Not_OK' } }),
      'metadata.namespace',
    ],
    [
      'a secret volume',
      manifest({
        spec: {
          containers: [{ name: 'c', image: 'i' }],
          volumes: [{ name: 'v', secret: { secretName: 's' } }],
        },
      }),
      'spec.volumes[0]',
    ],
    [
      'a config map env',
      manifest({
        spec: { containers: [{ name: 'c', image: 'i', envFrom: [{ configMapRef: { name: 'x' } }] }] },
      }),
      'spec.containers[0]',
    ],
    [
      'a service account',
      manifest({ spec: { serviceAccountName: 'x', containers: [{ name: 'c', image: 'i' }] } }),
      'spec.serviceAccountName',
    ],
    [
      'a cluster trust bundle',
      manifest({
        spec: {
          containers: [{ name: 'c', image: 'i' }],
          volumes: [{ name: 'v', projected: { sources: [{ clusterTrustBundle: { name: 'b' } }] } }],
        },
      }),
      'spec.volumes[0]',
    ],
    [
      'resource claims',
      manifest({ spec: { containers: [{ name: 'c', image: 'i' }], resourceClaims: [{ name: 'r' }] } }),
      'spec.resourceClaims',
    ],
  ])('refuses a pod with %s, naming the field', (_desc, doc, field) => {
    const result = decodeStaticPods(JSON.stringify(doc), urlOrigin);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe('KUBE_RX_INVALID_INPUT');
      expect(result.error.field).toBe(field);
      expect(result.error.input).toBe(urlOrigin.source);
    }
  });

  it.each([
    ['binary junk', '\u0001\u0002\u0003'],
    ['a YAML scalar', 'just words'],
    ['an array', '[1, 2]'],
    ['broken YAML', 'a: [unclosed'],
  ])('refuses %s', (_desc, text) => {
    expect(decodeStaticPods(text, fileOrigin).ok).toBe(false);
  });

  it('refuses a PodList from a file and a whole list when one item is bad', () => {
    const list = {
      apiVersion: 'v1',
      kind: 'PodList',
      items: [manifest(), { metadata: { name: 'x' }, spec: {} }],
    };
    expect(decodeStaticPods(JSON.stringify({ ...list, items: [manifest()] }), fileOrigin).ok).toBe(false);
    const result = decodeStaticPods(JSON.stringify(list), urlOrigin);
    expect(result.ok ? undefined : result.error.field).toBe('items[1].spec.containers');
  });

  it('derives the UID from the content and the origin when none is set', () => {
    const noUid = manifest({ metadata: { name: 'test' } });
    const uidOf = (pod: Pod, origin: typeof fileOrigin) => {
      const r = decodeStaticPods(JSON.stringify(pod), origin);
      return r.ok ? r.pods[0]!.metadata!.uid : undefined;
    };
    const a = uidOf(noUid, fileOrigin);
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(uidOf(noUid, fileOrigin)).toBe(a);
    expect(uidOf(noUid, { ...fileOrigin, source: '/other.yaml' })).not.toBe(a);
    expect(uidOf(noUid, { ...fileOrigin, nodeName: 'other' })).not.toBe(a);
    expect(
      uidOf(
        manifest({ metadata: { name: 'test' }, spec: { containers: [{ name: 'c', image: 'other' }] } }),
        fileOrigin,
      ),
    ).not.toBe(a);
    const r = decodeStaticPods(JSON.stringify(noUid), fileOrigin);
    expect(r.ok && r.pods[0]!.metadata!.annotations!['kubernetes.io/config.hash']).toBe(a);
  });

  it.each([
    ['node1', 'static-pod1', 'static-pod1-node1'],
    ['Node1', 'static-pod1', 'static-pod1-node1'],
    ['NODE1', 'static-pod1', 'static-pod1-node1'],
  ])(
    'names a static pod on node %s after the node, lowercased (TestStaticPodNameGenerate)',
    (node, name, expected) => {
      expect(staticPodName(name, node)).toBe(expected);
    },
  );

  it('rejects an upper-case pod name as metadata.name (TestStaticPodNameGenerate, overwritten name)', () => {
    const pod = applyStaticPodDefaults(manifest(), fileOrigin);
    pod.metadata!.name = 'static-pod1-NODE1';
    expect(validateStaticPod(pod).map((e) => e.field)).toContain('metadata.name');
  });

  it('keeps a toleration that is already there instead of adding it twice', () => {
    const pod = manifest({
      spec: {
        containers: [{ name: 'c', image: 'i' }],
        tolerations: [{ operator: 'Exists', effect: 'NoExecute' }],
      },
    });
    const r = decodeStaticPods(JSON.stringify(pod), fileOrigin);
    expect(r.ok && r.pods[0]!.spec!.tolerations).toEqual([{ operator: 'Exists', effect: 'NoExecute' }]);
  });
});
