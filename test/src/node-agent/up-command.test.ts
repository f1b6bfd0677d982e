// kube-rx up's flags for the embedded API server: authentication, authorization, feature gates and etcd storage reach it.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Etcd3 } from 'etcd3';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { upCommand } from '../../../src/node-agent/up-command.ts';
import { eventually } from '../../helpers/eventually.ts';
import { request } from '../apiserver/fixtures/http.ts';
import { NO_ETCD, startPrivateEtcd } from '../apiserver/storage/private-etcd.ts';
import { certificateRequest, csrObject } from '../controllers/certificates/certificate-request-fixture.ts';

/** `kube-rx up ARGS` (free ports, a kubeconfig in a temp dir) in this process, once it printed its line. */
async function startUp(args: string[]) {
  const dir = await mkdtemp(join(tmpdir(), 'kube-rx-up-flags-'));
  const kubeconfig = join(dir, 'kubeconfig');
  const lines: string[] = [];
  let stop: (() => void) | undefined;
  const signals = {
    on: (_sig: string, fn: () => void) => {
      stop = fn;
    },
    off: () => {},
  };
  const done = upCommand({ stdout: { write: (l: string) => lines.push(l) }, signals }).parseAsync(
    [
      ...['--port', '0', '--health-port', '0', '--kubelet-port', '0', '--kubeconfig-out', kubeconfig],
      ...args,
    ],
    { from: 'user' },
  );
  for (let i = 0; i < 200 && lines.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
  const { server } = JSON.parse(lines[0]!) as { server: string };
  // biome-ignore lint/suspicious/noExplicitAny: the kubeconfig is read field by field
  const config = load(await readFile(kubeconfig, 'utf8')) as any;
  return {
    server,
    token: config.users[0].user.token as string,
    async stop() {
      stop?.();
      await done.catch(() => {});
      await rm(dir, { recursive: true, force: true });
    },
  };
}

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
    const up = await startUp([
      ...['--node-name', 'flags-node', '--anonymous-auth', '--authorization-mode', 'AlwaysAllow'],
      ...['--feature-gates', 'CoordinatedLeaderElection=true'],
    ]);
    try {
      // anonymous may read /version; AlwaysAllow does not open resources to anonymous
      const anonymous = { url: up.server, caPem: '', token: undefined };
      const insecure = { ...anonymous };
      process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
      expect((await request(insecure, 'GET', '/version')).status).toBe(200);
      expect((await request(insecure, 'GET', '/api/v1/namespaces/default/pods')).status).toBe(403);
    } finally {
      delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
      await up.stop();
    }
  }, 30_000);

  it('refuses a negative --etcd-compaction-interval, naming the flag, before starting anything', async () => {
    const command = upCommand()
      .exitOverride()
      .configureOutput({ writeErr: () => {} });
    await expect(
      command.parseAsync(['--etcd-servers', 'http://127.0.0.1:1', '--etcd-compaction-interval', '-5'], {
        from: 'user',
      }),
    ).rejects.toThrow('--etcd-compaction-interval');
  });

  it.skipIf(NO_ETCD !== '')(
    `keeps the embedded API server's objects in etcd with --etcd-servers${NO_ETCD}`,
    async () => {
      const etcd = await startPrivateEtcd(60);
      const up = await startUp([
        ...['--node-name', 'etcd-node', '--etcd-servers', etcd.url, '--etcd-prefix', '/up-test'],
      ]);
      const client = new Etcd3({ hosts: etcd.url });
      try {
        process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
        const created = await request(
          { url: up.server, caPem: '', token: up.token },
          'POST',
          '/api/v1/namespaces/default/configmaps',
          {
            body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'kept' }, data: { a: '1' } },
          },
        );
        expect(created.status).toBe(201);
        expect(await client.get('/up-test/configmaps/default/kept').exists()).toBe(true);
      } finally {
        delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
        client.close();
        await up.stop();
        await etcd.stop();
      }
    },
    60_000,
  );

  it("signs an approved CertificateSigningRequest with the embedded server's CA (the controller manager's CSR signer)", async () => {
    const up = await startUp(['--node-name', 'csr-node']);
    const server = { url: up.server, caPem: '', token: up.token };
    const path = '/apis/certificates.k8s.io/v1/certificatesigningrequests';
    process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
    try {
      const { csrPem } = certificateRequest({ cn: 'bob', o: ['developers'] });
      expect((await request(server, 'POST', path, { body: csrObject('bob', csrPem) })).status).toBe(201);
      const csr = (await request(server, 'GET', `${path}/bob`)).body;
      const approval = { type: 'Approved', status: 'True', reason: 'Test', message: 'approved by the test' };
      const approved = await request(server, 'PUT', `${path}/bob/approval`, {
        body: { ...csr, status: { conditions: [approval] } },
      });
      expect(approved.status).toBe(200);
      await eventually(async () => {
        const issued = (await request(server, 'GET', `${path}/bob`)).body;
        expect(issued.status?.certificate ?? '').not.toBe('');
      }, 20_000);
    } finally {
      delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
      await up.stop();
    }
  }, 60_000);
});
