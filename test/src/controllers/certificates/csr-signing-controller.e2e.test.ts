// The CSR signer end to end: a key and CSR made with node-forge, `kubectl create -f`, `kubectl certificate approve`, then `kubectl auth whoami` with the issued certificate is the CSR's user.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useControlPlane } from '../../../helpers/control-plane.ts';
import { eventually } from '../../../helpers/eventually.ts';
import { KUBECTL, kubectl } from '../../scheduler/scheduler-process.ts';
import { certificateRequest, csrObject } from './certificate-request-fixture.ts';

describe.skipIf(!KUBECTL)('CSR signing end to end', { timeout: 120_000 }, () => {
  // the embedded server keeps its CA here, and the controller manager signs with it, as kubeadm's do
  const dataDir = mkdtempSync(join(tmpdir(), 'kube-rx-csr-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const plane = useControlPlane({
    apiServer: { dataDir },
    nodes: 1,
    controllerManager: [
      ...['--controllers', 'csrsigning,csrapproving,csrcleaner'],
      ...['--cluster-signing-cert-file', join(dataDir, 'ca.crt')],
      ...['--cluster-signing-key-file', join(dataDir, 'ca.key')],
    ],
  });

  it('issues a certificate that authenticates to the API server as the CSR subject', async () => {
    expect(plane.manager?.started.controllers).toEqual(
      expect.arrayContaining([
        'certificatesigningrequest-signing-controller',
        'certificatesigningrequest-approving-controller',
        'certificatesigningrequest-cleaner-controller',
      ]),
    );
    const { keyPem, csrPem } = certificateRequest({ cn: 'alice', o: ['developers'] });
    const manifest = csrObject('alice', csrPem, { expirationSeconds: 86_400 });
    expect(await plane.ok(['create', '-f', '-'], JSON.stringify(manifest))).toContain(
      'certificatesigningrequest.certificates.k8s.io/alice created',
    );
    expect(await plane.ok(['get', 'csr', 'alice'])).toMatch(
      /alice\s+\S+\s+kubernetes\.io\/kube-apiserver-client\s+.*24h\s+Pending/,
    );
    expect(await plane.ok(['certificate', 'approve', 'alice'])).toContain(
      'certificatesigningrequest.certificates.k8s.io/alice approved',
    );
    let certificate = '';
    await eventually(async () => {
      certificate = await plane.ok(['get', 'csr', 'alice', '-o', 'jsonpath={.status.certificate}']);
      expect(certificate).not.toBe('');
    }, 30_000);
    expect(await plane.ok(['get', 'csr', 'alice'])).toMatch(/Approved,Issued/);

    const kubeconfig = join(plane.dir, 'alice.kubeconfig');
    writeFileSync(
      kubeconfig,
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [
          {
            name: 'c',
            cluster: {
              server: plane.cluster.server.url,
              'certificate-authority-data': Buffer.from(plane.cluster.server.caPem).toString('base64'),
            },
          },
        ],
        users: [
          {
            name: 'alice',
            user: {
              'client-certificate-data': certificate,
              'client-key-data': Buffer.from(keyPem).toString('base64'),
            },
          },
        ],
        contexts: [{ name: 'alice', context: { cluster: 'c', user: 'alice' } }],
        'current-context': 'alice',
      }),
      { mode: 0o600 },
    );
    const whoami = await kubectl(kubeconfig, ['auth', 'whoami', '-o', 'json']);
    expect(whoami.stderr).toBe('');
    const status = JSON.parse(whoami.stdout).status.userInfo;
    expect(status.username).toBe('alice');
    expect(status.groups).toEqual(expect.arrayContaining(['developers', 'system:authenticated']));
  });
});
