// kube-rx up's flags for the embedded API server: authentication, authorization and feature gates reach it.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { upCommand } from '../../../src/node-agent/up-command.ts';
import { request } from '../apiserver/fixtures/http.ts';

describe('kube-rx up: embedded API server flags', () => {
  it('refuses an unknown feature gate, naming the flag, before starting anything', async () => {
    const command = upCommand()
      .exitOverride()
      .configureOutput({ writeErr: () => {} });
    await expect(command.parseAsync(['--feature-gates', 'Nope=true'], { from: 'user' })).rejects.toThrow(
      '--feature-gates: unrecognized feature gate: Nope',
    );
  });

  it('passes its API server flags through: with --anonymous-auth a request without credentials is forbidden (403), not unauthorized', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kube-rx-up-flags-'));
    const lines: string[] = [];
    let stop!: () => void;
    const signals = {
      on: (_sig: string, fn: () => void) => {
        stop = fn;
      },
      off: () => {},
    };
    const done = upCommand({
      stdout: { write: (l: string) => lines.push(l) },
      signals,
    }).parseAsync(
      [
        '--port',
        '0',
        '--health-port',
        '0',
        '--kubelet-port',
        '0',
        '--node-name',
        'flags-node',
        '--kubeconfig-out',
        join(dir, 'kubeconfig'),
        '--anonymous-auth',
        '--authorization-mode',
        'AlwaysAllow',
        '--feature-gates',
        'CoordinatedLeaderElection=true',
      ],
      { from: 'user' },
    );
    try {
      for (let i = 0; i < 200 && lines.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
      const { server } = JSON.parse(lines[0]!);
      // anonymous may read /version; AlwaysAllow does not open resources to anonymous
      const anonymous = { url: server, caPem: '', token: undefined };
      const insecure = { ...anonymous };
      process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
      expect((await request(insecure, 'GET', '/version')).status).toBe(200);
      expect((await request(insecure, 'GET', '/api/v1/namespaces/default/pods')).status).toBe(403);
    } finally {
      delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
      stop?.();
      await done.catch(() => {});
      await rm(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
