// The kube-rx/informers entry loads the informer machinery only: no API server, kubelet or scheduler module.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

describe('kube-rx/informers', () => {
  it('resolves no module of the API server, the kubelet, the scheduler or the runtimes', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kube-rx-entry-'));
    const script = join(dir, 'probe.mjs');
    const entry = pathToFileURL(join(import.meta.dirname, '../../../src/informers/index.ts')).href;
    writeFileSync(
      script,
      [
        "import { registerHooks } from 'node:module';",
        'const resolved = [];',
        'registerHooks({ resolve(specifier, context, next) { const r = next(specifier, context); resolved.push(r.url); return r; } });',
        `const m = await import(${JSON.stringify(entry)});`,
        'const heavy = resolved.filter((u) => /\\/src\\/(apiserver|kubelet|scheduler|node-agent)\\/|\\/streams\\/runtimes\\/|\\/operators\\/scheduling\\//.test(u));',
        'console.log(JSON.stringify({ heavy, sawInformer: resolved.some((u) => u.endsWith("/src/informers/shared-informer.ts")), exports: ["sharedInformer", "informerFactory", "kubeApiClient", "listWatch", "PODS"].every((n) => n in m) }));',
      ].join('\n'),
    );
    const run = spawnSync(process.execPath, [script], { encoding: 'utf8', timeout: 60_000 });
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout.trim().split('\n').at(-1)!)).toEqual({
      heavy: [],
      sawInformer: true,
      exports: true,
    });
  });
});
