// checkRequestForSigner: upstream's kubelet client/serving and API server client request checks (helpers_test.go, signer_test.go), as tables.
import { describe, expect, it } from 'vitest';
import {
  checkRequestForSigner,
  type ParsedCertificateRequest,
} from '../../../../operators/controller/certificates/csr-signer-check.ts';

const node = (over: Partial<ParsedCertificateRequest> = {}): ParsedCertificateRequest => ({
  commonName: 'system:node:worker-1',
  organizations: ['system:nodes'],
  dnsNames: [],
  ipAddresses: [],
  emailAddresses: [],
  uris: [],
  ...over,
});
const CLIENT = ['digital signature', 'key encipherment', 'client auth'];
const SERVING = ['digital signature', 'key encipherment', 'server auth'];
const KUBELET_CLIENT = 'kubernetes.io/kube-apiserver-client-kubelet';
const KUBELET_SERVING = 'kubernetes.io/kubelet-serving';
const API_CLIENT = 'kubernetes.io/kube-apiserver-client';

describe('checkRequestForSigner', () => {
  it.each<[string, ParsedCertificateRequest, string[], string | undefined]>([
    ['a valid kubelet client request', node(), CLIENT, undefined],
    [
      'client usages without key encipherment (non-RSA keys)',
      node(),
      ['digital signature', 'client auth'],
      undefined,
    ],
    [
      'another organization',
      node({ organizations: ['system:masters'] }),
      CLIENT,
      'subject organization is not system:nodes',
    ],
    [
      'system:nodes and one more organization',
      node({ organizations: ['system:nodes', 'extra'] }),
      CLIENT,
      'subject organization is not system:nodes',
    ],
    ['no organization', node({ organizations: [] }), CLIENT, 'subject organization is not system:nodes'],
    ['a DNS SAN', node({ dnsNames: ['worker-1'] }), CLIENT, 'DNS subjectAltNames are not allowed'],
    ['an email SAN', node({ emailAddresses: ['a@b.c'] }), CLIENT, 'Email subjectAltNames are not allowed'],
    ['an IP SAN', node({ ipAddresses: ['10.0.0.1'] }), CLIENT, 'IP subjectAltNames are not allowed'],
    ['a URI SAN', node({ uris: ['spiffe://x'] }), CLIENT, 'URI subjectAltNames are not allowed'],
    [
      'a common name that is not a node',
      node({ commonName: 'alice' }),
      CLIENT,
      'subject common name does not begin with system:node:',
    ],
    [
      'server auth instead of client auth',
      node(),
      SERVING,
      'usages did not match [client auth digital signature key encipherment]',
    ],
    [
      'an extra usage',
      node(),
      [...CLIENT, 'server auth'],
      'usages did not match [client auth digital signature key encipherment]',
    ],
  ])('kubelet client signer: %s', (_name, req, usages, error) => {
    expect(checkRequestForSigner(req, usages, KUBELET_CLIENT)).toEqual(
      error === undefined ? { recognized: true } : { recognized: true, error },
    );
  });

  it.each<[string, ParsedCertificateRequest, string[], string | undefined]>([
    ['a DNS SAN', node({ dnsNames: ['worker-1'] }), SERVING, undefined],
    ['an IP SAN', node({ ipAddresses: ['10.0.0.1'] }), SERVING, undefined],
    [
      'serving usages without key encipherment',
      node({ dnsNames: ['w'] }),
      ['digital signature', 'server auth'],
      undefined,
    ],
    ['no SAN', node(), SERVING, 'DNS or IP subjectAltName is required'],
    [
      'another organization',
      node({ dnsNames: ['w'], organizations: ['x'] }),
      SERVING,
      'subject organization is not system:nodes',
    ],
    [
      'an email SAN',
      node({ dnsNames: ['w'], emailAddresses: ['a@b.c'] }),
      SERVING,
      'Email subjectAltNames are not allowed',
    ],
    [
      'a URI SAN',
      node({ dnsNames: ['w'], uris: ['spiffe://x'] }),
      SERVING,
      'URI subjectAltNames are not allowed',
    ],
    [
      'client usages',
      node({ dnsNames: ['w'] }),
      CLIENT,
      'usages did not match [digital signature key encipherment server auth]',
    ],
    [
      'a common name that is not a node',
      node({ dnsNames: ['w'], commonName: 'web' }),
      SERVING,
      'subject common name does not begin with system:node:',
    ],
  ])('kubelet serving signer: %s', (_name, req, usages, error) => {
    expect(checkRequestForSigner(req, usages, KUBELET_SERVING)).toEqual(
      error === undefined ? { recognized: true } : { recognized: true, error },
    );
  });

  it.each<[string, string[], string | undefined]>([
    ['client auth alone', ['client auth'], undefined],
    ['client auth, digital signature and key encipherment', CLIENT, undefined],
    ['no client auth', ['digital signature'], 'missing required usage for client certificate: client auth'],
    ['no usage at all', [], 'missing required usage for client certificate: client auth'],
    ['server auth', ['client auth', 'server auth'], 'invalid usage for client certificate: server auth'],
    ['cert sign', ['cert sign', 'client auth'], 'invalid usage for client certificate: cert sign'],
  ])('API server client signer (any subject): %s', (_name, usages, error) => {
    const req = node({ commonName: 'alice', organizations: ['devs'], dnsNames: ['x'] });
    expect(checkRequestForSigner(req, usages, API_CLIENT)).toEqual(
      error === undefined ? { recognized: true } : { recognized: true, error },
    );
  });

  it.each(['example.com/my-signer', 'kubernetes.io/legacy-unknown', ''])(
    'leaves a CSR for signer %j alone',
    (signer) => {
      expect(checkRequestForSigner(node(), CLIENT, signer)).toEqual({ recognized: false });
    },
  );
});
