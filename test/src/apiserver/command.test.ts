// `kube-rx apiserver`: prints its URL once listening, writes the kubeconfig, stops on SIGTERM; bad flags are named.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { request } from './fixtures/http.ts';

const SERVE = resolve(import.meta.dirname, 'fixtures/serve.ts');

function run(args: string[]) {
  const proc = spawn(process.execPath, [SERVE, 'apiserver', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, KUBE_RX_LOG_LEVEL: 'warn' },
  });
  let stdout = '';
  let stderr = '';
  proc.stdout.on('data', (c: Buffer) => {
    stdout += c.toString();
  });
  proc.stderr.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  const exited = new Promise<number | null>((r) => proc.on('exit', (code) => r(code)));
  const firstLine = new Promise<string>((r, reject) => {
    proc.stdout.on('data', () => {
      const nl = stdout.indexOf('\n');
      if (nl >= 0) r(stdout.slice(0, nl));
    });
    void exited.then(() => reject(new Error(`exited: ${stderr}`)));
  });
  firstLine.catch(() => undefined); // a child that exits early is a failure only where the line is awaited
  return { proc, exited, firstLine, stderr: () => stderr };
}

describe('kube-rx apiserver', () => {
  it('prints {url, kubeconfig}, serves with a token file, and exits 0 on SIGTERM', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kube-rx-cmd-'));
    try {
      const kubeconfig = join(dir, 'kc');
      const tokenFile = join(dir, 'token');
      writeFileSync(tokenFile, 'tok123\n');
      const child = run(['--port', '0', '--kubeconfig-out', kubeconfig, '--token-file', tokenFile]);
      const line = JSON.parse(await child.firstLine);
      expect(line.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      expect(line.kubeconfig).toBe(kubeconfig);
      expect(existsSync(kubeconfig)).toBe(true);
      expect(readFileSync(kubeconfig, 'utf8')).toContain('token: tok123');
      const ca = /certificate-authority-data: (\S+)/.exec(readFileSync(kubeconfig, 'utf8'))![1]!;
      const server = { url: line.url, caPem: Buffer.from(ca, 'base64').toString(), token: 'tok123' };
      expect((await request(server, 'GET', '/api/v1/namespaces/default')).status).toBe(200);
      expect(
        (await request({ ...server, token: undefined }, 'GET', '/api/v1/namespaces/default')).status,
      ).toBe(401);
      child.proc.kill('SIGTERM');
      expect(await child.exited).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a non-loopback bind address without a token, naming the option', async () => {
    const child = run(['--port', '0', '--bind-address', '0.0.0.0']);
    expect(await child.exited).not.toBe(0);
    expect(child.stderr()).toMatch(/token/);
  });
});
