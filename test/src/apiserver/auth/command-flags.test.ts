// `kube-rx apiserver` auth flags: --token-auth-file, --authorization-mode, --anonymous-auth and --insecure-allow-unauthenticated.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { request } from '../fixtures/http.ts';

const SERVE = resolve(import.meta.dirname, '../fixtures/serve.ts');

/** Starts the command; resolves with its first stdout line, or rejects with stderr when it exits first. */
function run(args: string[]) {
  const proc = spawn(process.execPath, [SERVE, 'apiserver', '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, KUBE_RX_LOG_LEVEL: 'warn' },
  });
  let stdout = '';
  let stderr = '';
  proc.stderr.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  const exited = new Promise<number | null>((r) => proc.on('exit', (code) => r(code)));
  const firstLine = new Promise<{ url: string }>((r, reject) => {
    proc.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
      const nl = stdout.indexOf('\n');
      if (nl >= 0) r(JSON.parse(stdout.slice(0, nl)));
    });
    void exited.then(() => reject(new Error(`exited: ${stderr}`)));
  });
  firstLine.catch(() => undefined);
  const stop = async () => {
    if (proc.exitCode === null) proc.kill('SIGTERM');
    await exited;
  };
  return { firstLine, exited, stop, stderr: () => stderr };
}

describe('kube-rx apiserver auth flags', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kube-rx-auth-flags-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('authenticates --token-auth-file users and authorizes them with RBAC; the written kubeconfig is the admin', async () => {
    const tokens = join(dir, 'tokens.csv');
    writeFileSync(tokens, 'grace-token,grace,7,"viewers"\n');
    const kubeconfig = join(dir, 'kubeconfig');
    const child = run([
      '--token-auth-file',
      tokens,
      '--kubeconfig-out',
      kubeconfig,
      '--data-dir',
      join(dir, 'data'),
    ]);
    try {
      const { url } = await child.firstLine;
      const caPem = readFileSync(join(dir, 'data', 'ca.crt'), 'utf8');
      const grace = await request({ url, caPem, token: 'grace-token' }, 'GET', '/api/v1/namespaces');
      expect(grace.status).toBe(403);
      expect(grace.body.message).toContain('User "grace" cannot list resource "namespaces"');
      const adminToken = /token: (\S+)/.exec(readFileSync(kubeconfig, 'utf8'))![1]!;
      expect(adminToken).toBe(readFileSync(join(dir, 'data', 'admin.token'), 'utf8').trim());
      expect((await request({ url, caPem, token: adminToken }, 'GET', '/api/v1/namespaces')).status).toBe(
        200,
      );
      expect((await request({ url, caPem, token: undefined }, 'GET', '/api/v1/namespaces')).status).toBe(401);
    } finally {
      await child.stop();
    }
  });

  it('keeps the admin token across restarts of the same data dir', async () => {
    const data = join(dir, 'data');
    const before = readFileSync(join(data, 'admin.token'), 'utf8');
    const child = run(['--data-dir', data]);
    try {
      await child.firstLine;
      expect(readFileSync(join(data, 'admin.token'), 'utf8')).toBe(before);
    } finally {
      await child.stop();
    }
  });

  it('--anonymous-auth --authorization-mode AlwaysAllow: anonymous still only reads the public paths', async () => {
    const child = run(['--plain-http', '--anonymous-auth', '--authorization-mode', 'AlwaysAllow']);
    try {
      const { url } = await child.firstLine;
      const anonymous = { url, caPem: '', token: undefined };
      expect((await request(anonymous, 'GET', '/api/v1/secrets')).status).toBe(403);
      expect((await request(anonymous, 'GET', '/version')).status).toBe(200);
    } finally {
      await child.stop();
    }
  });

  it('--insecure-allow-unauthenticated serves everything and warns on stderr', async () => {
    const child = run(['--plain-http', '--insecure-allow-unauthenticated']);
    try {
      const { url } = await child.firstLine;
      expect((await request({ url, caPem: '', token: undefined }, 'GET', '/api/v1/secrets')).status).toBe(
        200,
      );
      expect(child.stderr()).toMatch(/INSECURE: --insecure-allow-unauthenticated is on/);
    } finally {
      await child.stop();
    }
  });

  it.each([
    ['an unknown authorization mode', ['--authorization-mode', 'Node,RBAC'], /--authorization-mode.*"Node"/],
    [
      'an unreadable token file',
      ['--token-auth-file', '/nonexistent/tokens.csv'],
      /--token-auth-file.*cannot read/,
    ],
  ])('refuses %s, naming the flag', async (_name, args, message) => {
    const child = run(args);
    expect(await child.exited).not.toBe(0);
    expect(child.stderr()).toMatch(message);
  });
});
