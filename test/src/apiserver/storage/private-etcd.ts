// Test helper: a private single-member etcd on free loopback ports in a temp dir (Debian's etcd-server).
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The etcd binary on PATH, or undefined (the etcd tests then skip, saying so). */
export const ETCD_BINARY: string | undefined = (() => {
  const found = spawnSync('sh', ['-c', 'command -v etcd'], { encoding: 'utf8' });
  return found.status === 0 && found.stdout.trim() !== '' ? found.stdout.trim() : undefined;
})();

/** Why the etcd tests are skipped, for `describe.skipIf(...)` titles. */
export const NO_ETCD = ETCD_BINARY
  ? ''
  : ' (SKIPPED: no etcd binary on PATH; install Debian package etcd-server)';

export interface PrivateEtcd {
  url: string;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const address = s.address();
      s.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * Starts etcd and resolves once it serves clients. The process is bounded: it is killed by
 * `timeout` after `lifetimeSeconds` even if the test runner dies before `stop()`.
 */
export async function startPrivateEtcd(
  lifetimeSeconds = 240,
  tls?: { certFile: string; keyFile: string; trustedCaFile: string },
): Promise<PrivateEtcd> {
  if (!ETCD_BINARY) throw new Error('no etcd binary');
  const dir = mkdtempSync(join(tmpdir(), 'kube-rx-etcd-'));
  const clientPort = await freePort();
  const peerPort = await freePort();
  const metricsPort = await freePort();
  const url = `${tls ? 'https' : 'http'}://127.0.0.1:${clientPort}`;
  const peer = `http://127.0.0.1:${peerPort}`;
  // /health over plain HTTP on the metrics listener, whatever the client listener asks of its clients
  const health = `http://127.0.0.1:${metricsPort}/health`;
  const tlsFlags = tls
    ? [
        `--cert-file=${tls.certFile}`,
        `--key-file=${tls.keyFile}`,
        `--trusted-ca-file=${tls.trustedCaFile}`,
        '--client-cert-auth',
      ]
    : [];
  const proc: ChildProcess = spawn(
    'timeout',
    [
      '--signal=KILL',
      String(lifetimeSeconds),
      ETCD_BINARY,
      '--name=kube-rx-test',
      `--data-dir=${join(dir, 'data')}`,
      `--listen-client-urls=${url}`,
      `--advertise-client-urls=${url}`,
      `--listen-peer-urls=${peer}`,
      `--initial-advertise-peer-urls=${peer}`,
      `--initial-cluster=kube-rx-test=${peer}`,
      `--listen-metrics-urls=http://127.0.0.1:${metricsPort}`,
      ...tlsFlags,
      '--log-level=error',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  proc.stderr!.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  const exited = new Promise<void>((r) => proc.once('exit', () => r()));
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`etcd exited: ${stderr}`);
    try {
      const res = await fetch(health);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      proc.kill('SIGTERM');
      throw new Error(`etcd did not become healthy in 20 s: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    stop: async () => {
      if (proc.exitCode === null && proc.signalCode === null) {
        proc.kill('SIGTERM'); // timeout passes it on to etcd
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
