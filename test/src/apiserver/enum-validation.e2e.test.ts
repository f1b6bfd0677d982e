// Enumerated fields and label selectors of built-in kinds: a value the kind does not allow is refused with kube-apiserver's words and its field path.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApiServer, startApiServer } from '../../../src/apiserver/index.ts';
import { KUBECTL, kubectlRunner } from '../../helpers/kubectl.ts';

describe.skipIf(!KUBECTL)('enumerated fields', () => {
  let server: RunningApiServer;
  let dir: string;
  let kubeconfig: string;
  const { kubectl, ok } = kubectlRunner(() => kubeconfig);

  beforeAll(async () => {
    server = await startApiServer();
    dir = mkdtempSync(join(tmpdir(), 'kube-rx-enums-'));
    kubeconfig = join(dir, 'kubeconfig');
    await server.writeKubeconfig(kubeconfig);
  });
  afterAll(async () => {
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const pod = (spec: Record<string, unknown>, container: Record<string, unknown> = {}) =>
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p' },
      spec: { containers: [{ name: 'c', image: 'busybox', ...container }], ...spec },
    });

  it.each([
    [
      'a pod restartPolicy',
      pod({ restartPolicy: 'Sometimes' }),
      'spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "Never", "OnFailure"',
    ],
    [
      "a container's imagePullPolicy",
      pod({}, { imagePullPolicy: 'Often' }),
      'spec.containers[0].imagePullPolicy: Unsupported value: "Often": supported values: "Always", "IfNotPresent", "Never"',
    ],
    [
      "a port's protocol",
      pod({}, { ports: [{ containerPort: 80, protocol: 'TCPX' }] }),
      'spec.containers[0].ports[0].protocol: Unsupported value: "TCPX": supported values: "SCTP", "TCP", "UDP"',
    ],
    [
      "a toleration's operator",
      pod({ tolerations: [{ key: 'k', operator: 'Maybe' }] }),
      'spec.tolerations[0].operator: Unsupported value: "Maybe": supported values: "Equal", "Exists"',
    ],
  ])('refuses %s naming the field, and stores nothing', async (_name, manifest, message) => {
    const r = await kubectl(['create', '--validate=false', '-f', '-'], manifest);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('is invalid');
    expect(r.stderr).toContain(message);
    expect((await kubectl(['get', 'pod', 'p'])).code).not.toBe(0);
  });

  it('accepts every allowed value', async () => {
    await ok(['create', '-f', '-'], pod({ restartPolicy: 'Never' }, { imagePullPolicy: 'IfNotPresent' }));
    await ok(['delete', 'pod', 'p', '--wait=false']);
  });

  const deployment = (expression: Record<string, unknown>) =>
    JSON.stringify({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd' },
      spec: {
        selector: { matchLabels: { app: 'd' }, matchExpressions: [expression] },
        template: {
          metadata: { labels: { app: 'd', tier: 'web' } },
          spec: { containers: [{ name: 'c', image: 'nginx' }] },
        },
      },
    });

  it.each([
    [
      'an operator that is none',
      { key: 'tier', operator: 'Bogus', values: ['web'] },
      'spec.selector.matchExpressions[0].operator: Invalid value: "Bogus": not a valid selector operator',
    ],
    [
      'In without values',
      { key: 'tier', operator: 'In' },
      "spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
    ],
    [
      'Exists with values',
      { key: 'tier', operator: 'Exists', values: ['web'] },
      "spec.selector.matchExpressions[0].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
    ],
  ])('refuses a selector with %s', async (_name, expression, message) => {
    const r = await kubectl(['create', '--validate=false', '-f', '-'], deployment(expression));
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(message);
  });

  it('accepts a valid set-based selector', async () => {
    await ok(['create', '-f', '-'], deployment({ key: 'tier', operator: 'In', values: ['web'] }));
  });
});
