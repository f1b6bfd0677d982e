// Tests kubeconfig loading over real HTTPS: file with token and CA, $KUBECONFIG, in-cluster, client certificates, redaction.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { TLSSocket } from 'node:tls';
import { firstValueFrom } from 'rxjs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { InvalidConfigError } from '../../../operators/errors.ts';
import { servingCertificates } from '../../../src/apiserver/certificates.ts';
import { createLogger } from '../../../src/logging/logger.ts';
import { kubeApiClient } from '../../../streams/client-node/kube-api-client.ts';
import { loadKubeConnection } from '../../../streams/client-node/kube-config.ts';
import { NAMESPACES } from '../../../streams/resources.ts';
import { json, type LoopbackServer, loopbackServer } from './loopback-server.ts';

const TOKEN = 'sEcReT-t0ken-value';
const b64 = (s: string) => Buffer.from(s).toString('base64');

let certs: ReturnType<typeof servingCertificates>;
let clientCerts: ReturnType<typeof servingCertificates>;
let server: LoopbackServer;
let dir: string;
const peers: (string | undefined)[] = [];

beforeAll(async () => {
  certs = servingCertificates('127.0.0.1');
  clientCerts = servingCertificates('127.0.0.2');
  dir = mkdtempSync(join(tmpdir(), 'kube-rx-kubeconfig-'));
  server = await loopbackServer(
    (req, res) => {
      const peer = (req.socket as TLSSocket).getPeerCertificate?.();
      peers.push(peer && Object.keys(peer).length > 0 ? peer.fingerprint256 : undefined);
      json(res, 200, { kind: 'NamespaceList', metadata: { resourceVersion: '1' }, items: [] });
    },
    { key: certs.keyPem, cert: certs.certPem, requestCert: true },
  );
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

function kubeconfig(
  user: string[],
  cluster: string[] = [`certificate-authority-data: ${b64(certs.caPem)}`],
): string {
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- name: c',
    '  cluster:',
    `    server: ${server.url}`,
    ...cluster.map((l) => `    ${l}`),
    'users:',
    '- name: u',
    '  user:',
    ...user.map((l) => `    ${l}`),
    'contexts:',
    '- name: ctx',
    '  context: {cluster: c, user: u, namespace: ops}',
    'current-context: ctx',
    '',
  ].join('\n');
}

const env = { ...process.env };
afterEach(() => {
  process.env = { ...env };
});

async function listThrough(client: ReturnType<typeof kubeApiClient>) {
  const before = server.requests.length;
  await firstValueFrom(client.list(NAMESPACES));
  client.close();
  return server.requests[before]!;
}

describe('loadKubeConnection / kubeApiClient', () => {
  it('from a file: bearer token, CA verification, context namespace', async () => {
    const path = join(dir, 'token.yaml');
    writeFileSync(path, kubeconfig([`token: ${TOKEN}`]));
    const client = kubeApiClient({ kubeConfig: { from: 'file', path } });
    expect(client.namespace).toBe('ops');
    const req = await listThrough(client);
    expect(req.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(req.headers['user-agent']).toBe('kube-rx');
  });

  it('rejects a server whose certificate the configured CA did not sign', async () => {
    const client = kubeApiClient({
      kubeConfig: {
        from: 'string',
        yaml: kubeconfig([`token: ${TOKEN}`], [`certificate-authority-data: ${b64(clientCerts.caPem)}`]),
      },
      maxReadRetries: 0,
    });
    await expect(firstValueFrom(client.list(NAMESPACES))).rejects.toMatchObject({
      code: 'KUBE_RX_CONNECTION',
    });
    client.close();
  });

  it('from $KUBECONFIG via the default loader', async () => {
    const path = join(dir, 'env.yaml');
    writeFileSync(path, kubeconfig([`token: env-${TOKEN}`]));
    process.env.KUBECONFIG = path;
    const req = await listThrough(kubeApiClient());
    expect(req.headers.authorization).toBe(`Bearer env-${TOKEN}`);
  });

  it('in-cluster: service host/port from the environment, token, CA and namespace from the service-account dir', async () => {
    const root = join(dir, 'pod');
    const sa = join(root, 'var/run/secrets/kubernetes.io/serviceaccount');
    mkdirSync(sa, { recursive: true });
    writeFileSync(join(sa, 'token'), `sa-${TOKEN}`);
    writeFileSync(join(sa, 'ca.crt'), certs.caPem);
    writeFileSync(join(sa, 'namespace'), 'kube-system');
    process.env.KUBERNETES_SERVICE_HOST = '127.0.0.1';
    process.env.KUBERNETES_SERVICE_PORT = String(server.port);
    const client = kubeApiClient({ kubeConfig: { from: 'cluster', pathPrefix: root } });
    expect(client.namespace).toBe('kube-system');
    const req = await listThrough(client);
    expect(req.headers.authorization).toBe(`Bearer sa-${TOKEN}`);
  });

  it('in-cluster outside a cluster names the missing variable', () => {
    delete process.env.KUBERNETES_SERVICE_HOST;
    expect(() => loadKubeConnection({ from: 'cluster' })).toThrow(InvalidConfigError);
    expect(() => loadKubeConnection({ from: 'cluster' })).toThrow(/KUBERNETES_SERVICE_HOST/);
  });

  it('client certificate and key are presented to the server', async () => {
    const client = kubeApiClient({
      kubeConfig: {
        from: 'string',
        yaml: kubeconfig([
          `client-certificate-data: ${b64(clientCerts.certPem)}`,
          `client-key-data: ${b64(clientCerts.keyPem)}`,
        ]),
      },
    });
    peers.length = 0;
    await listThrough(client);
    expect(peers[0]).toMatch(/^[0-9A-F:]+$/);
  });

  it('a context without a server is a configuration error naming the field', () => {
    const yaml = 'apiVersion: v1\nkind: Config\nclusters: []\nusers: []\ncontexts: []\ncurrent-context: ""\n';
    expect(() => loadKubeConnection({ from: 'string', yaml })).toThrow(/cluster.server/);
  });

  it('never writes secrets to the log, even at trace level; logged auth headers are redacted', async () => {
    let out = '';
    const destination = new Writable({
      write(chunk, _enc, done) {
        out += chunk.toString();
        done();
      },
    });
    const logger = createLogger({ level: 'trace', destination });
    const client = kubeApiClient({
      kubeConfig: {
        from: 'string',
        yaml: kubeconfig([
          `token: ${TOKEN}`,
          `client-key-data: ${b64(clientCerts.keyPem)}`,
          `client-certificate-data: ${b64(clientCerts.certPem)}`,
        ]),
      },
      logger,
    });
    await listThrough(client);
    logger.debug({ headers: { Authorization: `Bearer ${TOKEN}` } }, 'a component logging a request');
    expect(out).toContain('connecting to the API server');
    expect(out).toContain('[Redacted]');
    expect(out).not.toContain(TOKEN);
    expect(out).not.toContain('PRIVATE KEY');
  });
});
