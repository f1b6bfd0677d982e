// `kube-rx apiserver --builtin-namespace-controllers`: on by default (a server run alone empties deleted namespaces and gives new ones their account), off as kube-apiserver.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { request } from './fixtures/http.ts';

const SERVE = resolve(import.meta.dirname, 'fixtures/serve.ts');

/** Starts `kube-rx apiserver` on plain HTTP, open to unauthenticated requests; one process, stopped by the test. */
function run(args: string[]) {
  const proc = spawn(
    process.execPath,
    [SERVE, 'apiserver', '--port', '0', '--plain-http', '--insecure-allow-unauthenticated', ...args],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, KUBE_RX_LOG_LEVEL: 'warn' } },
  );
  let stdout = '';
  let stderr = '';
  proc.stderr.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  const exited = new Promise<number | null>((r) => proc.on('exit', (code) => r(code)));
  const url = new Promise<string>((r, reject) => {
    proc.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
      const nl = stdout.indexOf('\n');
      if (nl >= 0) r((JSON.parse(stdout.slice(0, nl)) as { url: string }).url);
    });
    void exited.then(() => reject(new Error(`exited: ${stderr}`)));
  });
  url.catch(() => undefined);
  return {
    url,
    stop: async () => {
      if (proc.exitCode === null) proc.kill('SIGTERM');
      return exited;
    },
  };
}

async function deleteTeam(args: string[]) {
  const child = run(args);
  try {
    const server = { url: await child.url, caPem: '', token: undefined };
    await request(server, 'POST', '/api/v1/namespaces', { body: { metadata: { name: 'team' } } });
    await request(server, 'POST', '/api/v1/namespaces/team/configmaps', {
      body: { metadata: { name: 'c' } },
    });
    const account = (await request(server, 'GET', '/api/v1/namespaces/team/serviceaccounts/default')).status;
    const deleted = await request(server, 'DELETE', '/api/v1/namespaces/team');
    const after = await request(server, 'GET', '/api/v1/namespaces/team');
    return {
      account,
      phase: deleted.body.status?.phase,
      after: after.status,
      afterPhase: after.body.status?.phase,
    };
  } finally {
    expect(await child.stop()).toBe(0);
  }
}

describe('kube-rx apiserver --builtin-namespace-controllers', { timeout: 60_000 }, () => {
  it('by default empties and removes a deleted namespace at once, and gives a new one its default account', async () => {
    expect(await deleteTeam([])).toEqual({
      account: 200,
      phase: 'Terminating',
      after: 404,
      afterPhase: undefined,
    });
  });

  it('=false leaves a deleted namespace Terminating for a namespace controller, and creates no account', async () => {
    expect(await deleteTeam(['--builtin-namespace-controllers=false'])).toEqual({
      account: 404,
      phase: 'Terminating',
      after: 200,
      afterPhase: 'Terminating',
    });
  });
});
