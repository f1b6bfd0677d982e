// The etcd engine over TLS with client-certificate authentication, as kube-apiserver's --etcd-cafile, --etcd-certfile and --etcd-keyfile.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientCertificate, servingCertificates } from '../../../../src/apiserver/certificates.ts';
import { startApiServer } from '../../../../src/apiserver/index.ts';
import { request } from '../fixtures/http.ts';
import { NO_ETCD, type PrivateEtcd, startPrivateEtcd } from './private-etcd.ts';

describe.skipIf(NO_ETCD !== '')(`etcd over TLS${NO_ETCD}`, { timeout: 60_000 }, () => {
  let etcd: PrivateEtcd;
  let dir: string;
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text, { mode: 0o600 });
    return path;
  };
  let files: { ca: string; cert: string; key: string; otherCa: string };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kube-rx-etcd-tls-'));
    // etcd's CA and serving certificate (127.0.0.1), and a client certificate that CA signed
    const ca = servingCertificates('127.0.0.1', join(dir, 'etcd-ca'));
    const client = clientCertificate(
      { caPem: ca.caPem, caKeyPem: ca.caKeyPem ?? '' },
      'kube-apiserver-etcd-client',
    );
    files = {
      ca: file('ca.crt', ca.caPem),
      cert: file('client.crt', client.certPem),
      key: file('client.key', client.keyPem),
      otherCa: file('other-ca.crt', servingCertificates('127.0.0.1', join(dir, 'other-ca')).caPem),
    };
    etcd = await startPrivateEtcd(60, {
      certFile: file('server.crt', ca.certPem),
      keyFile: file('server.key', ca.keyPem),
      trustedCaFile: files.ca,
    });
  });
  afterAll(async () => {
    await etcd?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('keeps objects in an https etcd that requires a client certificate', async () => {
    expect(etcd.url).toMatch(/^https:/);
    const server = await startApiServer({
      etcdServers: [etcd.url],
      etcdCaFile: files.ca,
      etcdCertFile: files.cert,
      etcdKeyFile: files.key,
      plainHttp: true,
    });
    try {
      const created = await request(server, 'POST', '/api/v1/namespaces/default/configmaps', {
        body: { metadata: { name: 'over-tls' }, data: { a: '1' } },
      });
      expect(created.status).toBe(201);
    } finally {
      await server.close();
    }
    // a second server on the same etcd reads it back
    const again = await startApiServer({
      etcdServers: [etcd.url],
      etcdCaFile: files.ca,
      etcdCertFile: files.cert,
      etcdKeyFile: files.key,
      plainHttp: true,
    });
    try {
      const got = await request(again, 'GET', '/api/v1/namespaces/default/configmaps/over-tls');
      expect(got.body.data).toEqual({ a: '1' });
    } finally {
      await again.close();
    }
  });

  it('fails to start without the client certificate, and when it does not trust etcd’s CA', async () => {
    await expect(
      startApiServer({ etcdServers: [etcd.url], etcdCaFile: files.ca, plainHttp: true }),
    ).rejects.toThrow();
    await expect(
      startApiServer({
        etcdServers: [etcd.url],
        etcdCaFile: files.otherCa,
        etcdCertFile: files.cert,
        etcdKeyFile: files.key,
        plainHttp: true,
      }),
    ).rejects.toThrow();
  });
});
