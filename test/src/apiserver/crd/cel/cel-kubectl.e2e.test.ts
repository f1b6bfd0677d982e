// kubectl end to end with CEL validation rules: a CRD with rules, objects breaking them refused with path and message, a rule that does not compile.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApiServer, startApiServer } from '../../../../../src/apiserver/index.ts';
import { KUBECTL, kubectlRunner } from '../../../../helpers/kubectl.ts';
import { SCALER_CRD, scaler } from './scalers.ts';

if (!KUBECTL) console.warn('CEL kubectl tests skipped: kubectl is not installed (.ci/run installs it)');

describe.skipIf(!KUBECTL)('kubectl with CRD validation rules (CEL)', () => {
  let server: RunningApiServer;
  let dir: string;
  let kubeconfig: string;
  const { kubectl, ok } = kubectlRunner(() => kubeconfig);
  const file = (name: string, content: unknown) => {
    const path = join(dir, name);
    writeFileSync(path, JSON.stringify(content));
    return path;
  };

  beforeAll(async () => {
    server = await startApiServer();
    dir = mkdtempSync(join(tmpdir(), 'kube-rx-cel-'));
    kubeconfig = join(dir, 'kubeconfig');
    await server.writeKubeconfig(kubeconfig);
    const applied = await kubectl(['apply', '-f', file('scalers-crd.json', SCALER_CRD)]);
    expect(applied.code).toBe(0);
    expect(applied.stderr).toBe('');
    await ok(['wait', '--for=condition=Established', '--timeout=10s', 'crd/scalers.cel.example.com']);
  });

  afterAll(async () => {
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('refuses an object breaking a rule, naming the field path and the message', async () => {
    const r = await kubectl([
      'apply',
      '-f',
      file('big.json', scaler('big', { replicas: 5, maxReplicas: 3, mode: 'fast' })),
    ]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/Scaler(\.cel\.example\.com)? "big" is invalid/);
    expect(r.stderr).toContain('spec: Invalid value: "object": replicas must not exceed maxReplicas');
    expect((await kubectl(['get', 'scaler', 'big'])).code).not.toBe(0);
  });

  it('accepts an object keeping the rules, then refuses a change a transition rule forbids', async () => {
    await ok(['apply', '-f', file('s1.json', scaler('s1', { replicas: 2, maxReplicas: 3, mode: 'fast' }))]);
    const changed = await kubectl([
      'apply',
      '-f',
      file('s1-mode.json', scaler('s1', { replicas: 2, maxReplicas: 3, mode: 'slow' })),
    ]);
    expect(changed.code).not.toBe(0);
    expect(changed.stderr).toContain('spec.mode: Invalid value: "string": mode is immutable');
    await ok([
      'apply',
      '-f',
      file('s1-more.json', scaler('s1', { replicas: 3, maxReplicas: 3, mode: 'fast' })),
    ]);
    expect(await ok(['get', 'scaler', 's1', '-o', 'jsonpath={.spec.mode}/{.spec.replicas}'])).toBe('fast/3');
  });

  it('runs the rules on server-side apply too', async () => {
    const r = await kubectl([
      'apply',
      '--server-side',
      '-f',
      file('ssa.json', scaler('ssa', { replicas: 9, maxReplicas: 1, mode: 'fast' })),
    ]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('spec: Invalid value: "object": replicas must not exceed maxReplicas');
    await ok([
      'apply',
      '--server-side',
      '-f',
      file('ssa-ok.json', scaler('ssa', { replicas: 1, maxReplicas: 1, mode: 'fast' })),
    ]);
    const changed = await kubectl([
      'apply',
      '--server-side',
      '-f',
      file('ssa-mode.json', scaler('ssa', { replicas: 1, maxReplicas: 1, mode: 'slow' })),
    ]);
    expect(changed.code).not.toBe(0);
    expect(changed.stderr).toContain('spec.mode: Invalid value: "string": mode is immutable');
  });

  it('runs the status rules on the status subresource, with messageExpression and fieldPath', async () => {
    await ok(['apply', '-f', file('s2.json', scaler('s2', { replicas: 1, maxReplicas: 2, mode: 'fast' }))]);
    const bad = await kubectl([
      'patch',
      'scaler',
      's2',
      '--subresource=status',
      '--type=merge',
      '-p',
      JSON.stringify({ status: { ready: 4, total: 2 } }),
    ]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('status.ready: Invalid value: "object": ready 4 is more than total 2');
    await ok([
      'patch',
      'scaler',
      's2',
      '--subresource=status',
      '--type=merge',
      '-p',
      '{"status":{"ready":1,"total":2}}',
    ]);
  });

  it('leaves the rules unchecked, saying so, when a field has the wrong type', async () => {
    const r = await kubectl([
      'apply',
      '-f',
      file('typo.json', scaler('typo', { replicas: 'two', maxReplicas: 3 })),
    ]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(
      'spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer',
    );
    expect(r.stderr).toContain(
      'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
    );
  });

  it('refuses a CRD whose rule does not compile, naming the rule', async () => {
    const crd = structuredClone(SCALER_CRD);
    crd.metadata.name = 'brokens.cel.example.com';
    Object.assign(crd.spec.names, { plural: 'brokens', singular: 'broken', kind: 'Broken' });
    crd.spec.versions[0]!.schema.openAPIV3Schema.properties.spec['x-kubernetes-validations'] = [
      { rule: 'self.replicas <= self.maxReplica', message: 'replicas must not exceed maxReplicas' },
    ];
    const r = await kubectl(['apply', '-f', file('broken-crd.json', crd)]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(
      /CustomResourceDefinition(\.apiextensions\.k8s\.io)? "brokens.cel.example.com" is invalid/,
    );
    expect(r.stderr).toContain(
      'spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Invalid value:',
    );
    expect(r.stderr).toContain('self.replicas <= self.maxReplica');
    expect(r.stderr).toContain("compilation failed: ERROR: <input>:1:23: undefined field 'maxReplica'");
    expect((await kubectl(['get', 'crd', 'brokens.cel.example.com'])).code).not.toBe(0);
  });
});
