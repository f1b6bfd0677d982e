// csrApprovingController over HTTP against the embedded API server: kubelet client CSRs approved when a SubjectAccessReview allows nodeclient or selfnodeclient, others left pending.
import { firstValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CertificateSigningRequest } from '../../../../operators/controller/certificates/certificate-signing-request.ts';
import { CERTIFICATE_SIGNING_REQUESTS } from '../../../../src/controllers/certificates/certificates-resources.ts';
import { csrApprovingController } from '../../../../src/controllers/certificates/csr-approving-controller.ts';
import { informerFactory } from '../../../../src/informers/informer-factory.ts';
import { useEmbeddedCluster } from '../../../helpers/embedded-cluster.ts';
import { eventually } from '../../../helpers/eventually.ts';
import { certificateRequest, csrObject } from './certificate-request-fixture.ts';

const cluster = useEmbeddedCluster();
const RBAC = (plural: string, kind: string) => ({
  group: 'rbac.authorization.k8s.io',
  version: 'v1',
  plural,
  kind,
  namespaced: false,
});
const KUBELET_CLIENT = {
  signerName: 'kubernetes.io/kube-apiserver-client-kubelet',
  usages: ['digital signature', 'key encipherment', 'client auth'],
};

describe('csrApprovingController', () => {
  let stop = () => {};
  beforeAll(async () => {
    // as kubeadm does: bootstrap tokens may ask for node client certificates
    await firstValueFrom(
      cluster.api.create(RBAC('clusterroles', 'ClusterRole'), {
        metadata: { name: 'system:certificates.k8s.io:certificatesigningrequests:nodeclient' },
        rules: [
          {
            apiGroups: ['certificates.k8s.io'],
            resources: ['certificatesigningrequests/nodeclient'],
            verbs: ['create'],
          },
        ],
      }),
    );
    await firstValueFrom(
      cluster.api.create(RBAC('clusterrolebindings', 'ClusterRoleBinding'), {
        metadata: { name: 'kubeadm:node-autoapprove-bootstrap' },
        roleRef: {
          apiGroup: 'rbac.authorization.k8s.io',
          kind: 'ClusterRole',
          name: 'system:certificates.k8s.io:certificatesigningrequests:nodeclient',
        },
        subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'system:bootstrappers' }],
      }),
    );
    const factory = informerFactory({ client: cluster.api });
    const sub = csrApprovingController({ client: cluster.api, informerFactory: factory }).subscribe();
    factory.start();
    stop = () => {
      sub.unsubscribe();
      factory.shutdown();
    };
  });
  afterAll(() => stop());

  const get = (name: string) =>
    firstValueFrom(cluster.api.get<CertificateSigningRequest>(CERTIFICATE_SIGNING_REQUESTS, name));
  const create = (name: string, cn: string, spec: Partial<CertificateSigningRequest['spec']>) =>
    firstValueFrom(
      cluster.api.create(
        CERTIFICATE_SIGNING_REQUESTS,
        csrObject(name, certificateRequest({ cn, o: ['system:nodes'] }).csrPem, spec),
      ),
    );

  it('approves a bootstrap token asking for a node client certificate (nodeclient)', async () => {
    await create('bootstrap', 'system:node:n1', {
      ...KUBELET_CLIENT,
      username: 'system:bootstrap:abcdef',
      groups: ['system:bootstrappers', 'system:authenticated'],
    });
    await eventually(async () => {
      const approved = (await get('bootstrap')).status?.conditions?.find((c) => c.type === 'Approved');
      expect(approved).toMatchObject({
        status: 'True',
        reason: 'AutoApproved',
        message: 'Auto approving kubelet client certificate after SubjectAccessReview.',
      });
    }, 15_000);
  }, 30_000);

  it('approves a node renewing its own certificate through selfnodeclient first', async () => {
    await create('renewal', 'system:node:n2', {
      ...KUBELET_CLIENT,
      username: 'system:node:n2',
      groups: ['system:masters'],
    });
    await eventually(async () => {
      const approved = (await get('renewal')).status?.conditions?.find((c) => c.type === 'Approved');
      expect(approved?.message).toBe(
        'Auto approving self kubelet client certificate after SubjectAccessReview.',
      );
    }, 15_000);
  }, 30_000);

  it('leaves pending a requester without the permission, and a CSR that is not a kubelet client one', async () => {
    await create('stranger', 'system:node:n3', {
      ...KUBELET_CLIENT,
      username: 'someone',
      groups: ['system:authenticated'],
    });
    await create('client', 'system:node:n4', {
      signerName: 'kubernetes.io/kube-apiserver-client',
      usages: ['client auth'],
      username: 'system:node:n4',
      groups: ['system:masters'],
    });
    // a CSR approved after both shows the controller has looked at them
    await create('marker', 'system:node:n5', {
      ...KUBELET_CLIENT,
      username: 'system:bootstrap:x',
      groups: ['system:bootstrappers'],
    });
    await eventually(async () => {
      expect((await get('marker')).status?.conditions?.map((c) => c.type)).toEqual(['Approved']);
    }, 15_000);
    expect((await get('stranger')).status?.conditions ?? []).toEqual([]);
    expect((await get('client')).status?.conditions ?? []).toEqual([]);
  }, 30_000);
});
