// Fields upstream defaults from their zero value ('' or 0, as a protobuf body carries them) are read as that default, not refused.
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../../operators/types.ts';
import { APPS_VALIDATORS } from '../../../../../src/apiserver/builtin/validation/apps-validation.ts';
import { validateService } from '../../../../../src/apiserver/builtin/validation/core-service-validation.ts';
import { validatePodSpec } from '../../../../../src/apiserver/builtin/validation/pod-spec-validation.ts';
import { causeLines } from './cause-lines.ts';

const template = {
  metadata: { labels: { a: 'b' } },
  spec: { restartPolicy: '', containers: [{ name: 'c', image: 'i' }] },
};
const workload = (spec: object) =>
  ({
    metadata: { name: 'w' },
    spec: { selector: { matchLabels: { a: 'b' } }, template, ...spec },
  }) as KubeObject;

describe('zero values read as upstream’s defaults', () => {
  it.each([
    [
      'a liveness successThreshold of 0 (defaults to 1)',
      { livenessProbe: { httpGet: { port: 80 }, successThreshold: 0 } },
    ],
    ['an empty HTTP scheme (defaults to HTTP)', { readinessProbe: { httpGet: { port: 80, scheme: '' } } }],
    [
      'an empty fieldRef apiVersion (defaults to v1)',
      { env: [{ name: 'N', valueFrom: { fieldRef: { apiVersion: '', fieldPath: 'metadata.name' } } }] },
    ],
  ])('%s', (_name, container) => {
    expect(validatePodSpec({ containers: [{ name: 'c', image: 'i', ...container }] }, 'spec')).toEqual([]);
  });

  it.each([
    ['deployments', { strategy: { type: '' } }],
    ['statefulsets', { podManagementPolicy: '', updateStrategy: { type: '' } }],
    ['daemonsets', { updateStrategy: { type: '' } }],
  ])('%s: an empty restartPolicy and strategy types', (resource, spec) => {
    expect(APPS_VALIDATORS[`apps/${resource}`]!(workload(spec))).toEqual([]);
  });

  it('a Service of type "" is a ClusterIP service, and sessionAffinity "" is None', () => {
    const svc = (spec: object) =>
      ({ metadata: { name: 's' }, spec: { type: '', ports: [{ port: 80 }], ...spec } }) as KubeObject;
    expect(validateService(svc({}))).toEqual([]);
    expect(causeLines(validateService(svc({ ports: [{ port: 80, nodePort: 30000 }] })))).toEqual([
      "spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'",
    ]);
    expect(
      causeLines(
        validateService(
          svc({ sessionAffinity: '', sessionAffinityConfig: { clientIP: { timeoutSeconds: 5 } } }),
        ),
      ),
    ).toEqual(['spec.sessionAffinityConfig: Forbidden: must not be set when session affinity is None']);
  });
});
