// KubeletConfiguration: defaults, fields read, validation naming the field, and the --register-with-taints / --node-labels flags.
import { describe, expect, it } from 'vitest';
import {
  defaultKubeletConfiguration,
  parseKubeletConfiguration,
  parseNodeLabelsFlag,
  parseTaintsFlag,
} from '../../../src/kubelet/kubelet-configuration.ts';

const HEAD = 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n';

describe('parseKubeletConfiguration', () => {
  it('applies the kubelet defaults to an empty configuration', () => {
    expect(parseKubeletConfiguration(HEAD)).toEqual(defaultKubeletConfiguration());
    expect(defaultKubeletConfiguration()).toMatchObject({
      fileCheckFrequencyMs: 20_000,
      httpCheckFrequencyMs: 20_000,
      syncFrequencyMs: 60_000,
      nodeStatusUpdateFrequencyMs: 10_000,
      nodeStatusReportFrequencyMs: 300_000,
      maxPods: 110,
      healthzPort: 10248,
      port: 10250,
    });
  });

  it('reads the fields it knows', () => {
    const config = parseKubeletConfiguration(
      `${HEAD}staticPodPath: /etc/kubernetes/manifests\nstaticPodURL: http://x/pods\nstaticPodURLHeader:\n  X-A: [one, two]\nfileCheckFrequency: 5s\nhttpCheckFrequency: 1m\nsyncFrequency: 30s\nmaxPods: 20\nregisterWithTaints:\n- key: dedicated\n  value: gpu\n  effect: NoSchedule\nhealthzPort: 0\nport: 11250\n`,
    );
    expect(config).toMatchObject({
      staticPodPath: '/etc/kubernetes/manifests',
      staticPodURL: 'http://x/pods',
      staticPodURLHeader: [
        ['X-A', 'one'],
        ['X-A', 'two'],
      ],
      fileCheckFrequencyMs: 5_000,
      httpCheckFrequencyMs: 60_000,
      syncFrequencyMs: 30_000,
      maxPods: 20,
      registerWithTaints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }],
      healthzPort: 0,
      port: 11250,
    });
  });

  it('takes the report frequency from the update frequency when only that is set', () => {
    expect(parseKubeletConfiguration(`${HEAD}nodeStatusUpdateFrequency: 20s\n`)).toMatchObject({
      nodeStatusUpdateFrequencyMs: 20_000,
      nodeStatusReportFrequencyMs: 20_000,
    });
  });

  it.each([
    ['apiVersion', 'apiVersion: v1\nkind: KubeletConfiguration\n'],
    ['kind', 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: Pod\n'],
    ['maxPods', `${HEAD}maxPods: -1\n`],
    ['fileCheckFrequency', `${HEAD}fileCheckFrequency: soon\n`],
    ['syncFrequency', `${HEAD}syncFrequency: 10\n`],
    ['port', `${HEAD}port: 70000\n`],
    ['registerWithTaints[0].effect', `${HEAD}registerWithTaints:\n- key: a\n  effect: Sometimes\n`],
    ['registerWithTaints[0].key', `${HEAD}registerWithTaints:\n- effect: NoSchedule\n`],
    ['staticPodURLHeader.X', `${HEAD}staticPodURLHeader:\n  X: value\n`],
    ['bogusField', `${HEAD}bogusField: 1\n`],
  ])('names %s when it is wrong', (field, text) => {
    expect(() => parseKubeletConfiguration(text)).toThrow(expect.objectContaining({ field }));
  });
});

describe('kubelet flags', () => {
  it('parses --register-with-taints', () => {
    expect(parseTaintsFlag('a=b:NoSchedule,c:NoExecute')).toEqual([
      { key: 'a', value: 'b', effect: 'NoSchedule' },
      { key: 'c', effect: 'NoExecute' },
    ]);
    expect(() => parseTaintsFlag('a=b')).toThrow(
      expect.objectContaining({ field: '--register-with-taints' }),
    );
  });

  it('parses --node-labels', () => {
    expect(parseNodeLabelsFlag('zone=a, tier=web')).toEqual({ zone: 'a', tier: 'web' });
    expect(() => parseNodeLabelsFlag('novalue')).toThrow(expect.objectContaining({ field: '--node-labels' }));
  });
});
