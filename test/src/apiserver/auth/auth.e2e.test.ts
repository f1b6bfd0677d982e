// Authentication and RBAC end to end: kubectl, raw HTTPS with tokens and client certificates, access reviews.
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Logger, silentLogger } from '../../../../operators/logger.ts';
import { clientCertificate, servingCertificates } from '../../../../src/apiserver/certificates.ts';
import { type RunningApiServer, startApiServer } from '../../../../src/apiserver/index.ts';
import { KUBECTL, kubectlRunner } from '../../../helpers/kubectl.ts';
import { request } from '../fixtures/http.ts';

/** One HTTPS request with a client certificate and no token. */
function withCertificate(
  server: RunningApiServer,
  path: string,
  cert: { certPem: string; keyPem: string },
): Promise<{ status: number; body: { message?: string } }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(new URL(path, server.url), {
      ca: server.caPem,
      cert: cert.certPem,
      key: cert.keyPem,
      agent: false,
    });
    req.on('error', reject);
    req.on('response', (res) => {
      let text = '';
      res.on('data', (c: Buffer) => {
        text += c.toString();
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    req.end();
  });
}

const SA = 'system:serviceaccount:team:ctrl';
const LEAST_PRIVILEGE = `apiVersion: v1
kind: Namespace
metadata: {name: team}
---
apiVersion: v1
kind: ServiceAccount
metadata: {name: ctrl, namespace: team}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: pod-reader, namespace: team}
rules:
- apiGroups: [""]
  resources: [pods, pods/log]
  verbs: [get, list, watch]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: ctrl-reads-pods, namespace: team}
subjects:
- kind: ServiceAccount
  name: ctrl
  namespace: team
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: Role
  name: pod-reader
`;

describe('authentication and authorization', () => {
  let server: RunningApiServer;
  let dir: string;
  let kubeconfig: string;

  const { kubectl } = kubectlRunner(() => kubeconfig);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kube-rx-auth-'));
    const tokens = join(dir, 'tokens.csv');
    writeFileSync(tokens, 'alice-token,alice,1001,"developers,qa"\nbob-token,bob,1002\n');
    server = await startApiServer({ tokenAuthFile: tokens, dataDir: join(dir, 'data') });
    kubeconfig = join(dir, 'kubeconfig');
    await server.writeKubeconfig(kubeconfig);
  });

  afterAll(async () => {
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  describe('authentication', () => {
    it('refuses a request without credentials with 401 Unauthorized', async () => {
      const res = await request({ ...server, token: undefined }, 'GET', '/api/v1/secrets');
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({
        kind: 'Status',
        reason: 'Unauthorized',
        message: 'Unauthorized',
        code: 401,
      });
    });

    it('refuses a wrong token with 401', async () => {
      expect((await request({ ...server, token: 'wrong' }, 'GET', '/api/v1/secrets')).status).toBe(401);
    });

    it('serves the health and version paths without credentials', async () => {
      for (const path of ['/healthz', '/livez', '/readyz', '/version']) {
        expect((await request({ ...server, token: undefined }, 'GET', path)).status, path).toBe(200);
      }
    });

    it('authenticates token-file users, who get nothing until bound', async () => {
      const res = await request(
        { ...server, token: 'alice-token' },
        'GET',
        '/api/v1/namespaces/default/secrets',
      );
      expect(res.status).toBe(403);
      expect(res.body.message).toBe(
        'secrets is forbidden: User "alice" cannot list resource "secrets" in API group "" in the namespace "default"',
      );
      expect(res.body.details).toEqual({ kind: 'secrets' });
    });

    it('authenticates client certificates signed by the server CA: CN is the user, O the groups', async () => {
      const admin = server.clientCertificate('carol', ['system:masters']);
      expect((await withCertificate(server, '/api/v1/namespaces/default/secrets', admin)).status).toBe(200);
      const plain = server.clientCertificate('dave');
      const refused = await withCertificate(server, '/api/v1/namespaces/kube-system/secrets/x', plain);
      expect(refused.status).toBe(403);
      expect(refused.body.message).toBe(
        'secrets "x" is forbidden: User "dave" cannot get resource "secrets" in API group "" in the namespace "kube-system"',
      );
    });

    it('refuses a client certificate from another CA with 401', async () => {
      // Another bind address gets its own in-memory CA.
      const foreignCa = servingCertificates('127.0.0.3');
      expect(foreignCa.caPem).not.toBe(server.caPem);
      const foreign = clientCertificate(
        { caPem: foreignCa.caPem, caKeyPem: foreignCa.caKeyPem! },
        'mallory',
        ['system:masters'],
      );
      expect((await withCertificate(server, '/api/v1/namespaces/default/secrets', foreign)).status).toBe(401);
    });

    it('keeps the data dir readable by its owner only', () => {
      const data = join(dir, 'data');
      expect(statSync(data).mode & 0o777).toBe(0o700);
      for (const file of [
        'ca.crt',
        'ca.key',
        'apiserver.crt',
        'apiserver.key',
        'admin.token',
        'objects.db',
      ]) {
        expect(statSync(join(data, file)).mode & 0o077, file).toBe(0);
      }
    });
  });

  describe('access reviews', () => {
    it('answers a SubjectAccessReview for another user', async () => {
      const res = await request(server, 'POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', {
        body: {
          apiVersion: 'authorization.k8s.io/v1',
          kind: 'SubjectAccessReview',
          spec: {
            user: 'alice',
            groups: ['developers'],
            resourceAttributes: { verb: 'get', resource: 'pods', namespace: 'default' },
          },
        },
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ kind: 'SubjectAccessReview', status: { allowed: false } });
    });

    it('answers a SelfSubjectAccessReview for the requester', async () => {
      const res = await request(
        { ...server, token: 'bob-token' },
        'POST',
        '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
        {
          body: {
            kind: 'SelfSubjectAccessReview',
            spec: { nonResourceAttributes: { verb: 'get', path: '/healthz' } },
          },
        },
      );
      expect(res.status).toBe(201);
      expect(res.body.status.allowed).toBe(true);
    });

    it('forbids a SubjectAccessReview to users who may not create one', async () => {
      const res = await request(
        { ...server, token: 'bob-token' },
        'POST',
        '/apis/authorization.k8s.io/v1/subjectaccessreviews',
        {
          body: {
            kind: 'SubjectAccessReview',
            spec: { user: 'alice', resourceAttributes: { verb: 'get', resource: 'pods' } },
          },
        },
      );
      expect(res.status).toBe(403);
    });

    it('refuses a review with neither resource nor non-resource attributes, naming the field', async () => {
      const res = await request(server, 'POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', {
        body: { kind: 'SelfSubjectAccessReview', spec: {} },
      });
      expect(res.status).toBe(422);
      expect(res.body.details.causes[0].field).toBe('spec.resourceAttributes');
    });
  });

  describe('impersonation', () => {
    it('lets system:masters act as another user', async () => {
      const res = await request(server, 'GET', '/api/v1/namespaces/default/secrets', {
        headers: { 'Impersonate-User': 'alice' },
      });
      expect(res.status).toBe(403);
      expect(res.body.message).toContain('User "alice" cannot list');
    });

    it('forbids impersonation to others', async () => {
      const res = await request(
        { ...server, token: 'alice-token' },
        'GET',
        '/api/v1/namespaces/default/secrets',
        {
          headers: { 'Impersonate-User': 'kube-rx-admin', 'Impersonate-Group': 'system:masters' },
        },
      );
      expect(res.status).toBe(403);
      expect(res.body.message).toBe(
        'users "kube-rx-admin" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope',
      );
    });
  });

  describe.skipIf(!KUBECTL)('kubectl', () => {
    it('works with the written kubeconfig, and fails Unauthorized with a wrong token', async () => {
      const good = await kubectl(['get', 'secrets', '-A']);
      expect(good.stderr.trim()).toBe('No resources found');
      expect(good.code).toBe(0);
      const bad = await kubectl(['--token=wrong', 'get', 'secrets']);
      expect(bad.code).not.toBe(0);
      expect(bad.stderr).toMatch(/Unauthorized/);
    });

    it('answers auth can-i for a service account before and after a Role and RoleBinding', async () => {
      const before = await kubectl(['auth', 'can-i', 'list', 'pods', '-n', 'team', `--as=${SA}`]);
      expect(before.stdout.trim()).toBe('no');
      expect(before.code).toBe(1);
      const applied = await kubectl(['apply', '-f', '-'], LEAST_PRIVILEGE);
      expect(applied.stderr).toBe('');
      for (const [verb, resource, answer] of [
        ['list', 'pods', 'yes'],
        ['get', 'pods/log', 'yes'],
        ['watch', 'pods', 'yes'],
        ['delete', 'pods', 'no'],
        ['get', 'secrets', 'no'],
      ] as const) {
        const r = await kubectl(['auth', 'can-i', verb, resource, '-n', 'team', `--as=${SA}`]);
        expect(r.stdout.trim(), `${verb} ${resource}`).toBe(answer);
      }
      const elsewhere = await kubectl(['auth', 'can-i', 'list', 'pods', '-n', 'default', `--as=${SA}`]);
      expect(elsewhere.stdout.trim()).toBe('no');
    });

    it('answers auth whoami for the admin and a token-file user', async () => {
      const admin = await kubectl(['auth', 'whoami', '-o', 'json']);
      expect(admin.stderr).toBe('');
      expect(JSON.parse(admin.stdout).status.userInfo).toEqual({
        username: 'kube-rx-admin',
        uid: 'kube-rx-admin',
        groups: ['system:masters', 'system:authenticated'],
      });
      const alice = await kubectl(['--token=alice-token', 'auth', 'whoami', '-o', 'json']);
      expect(JSON.parse(alice.stdout).status.userInfo).toEqual({
        username: 'alice',
        uid: '1001',
        groups: ['developers', 'qa', 'system:authenticated'],
      });
    });

    it('lists what a service account may do with auth can-i --list', async () => {
      const r = await kubectl(['auth', 'can-i', '--list', '-n', 'team', `--as=${SA}`]);
      expect(r.stderr).toBe('');
      expect(r.stdout).toMatch(/^pods\s+\[\]\s+\[\]\s+\[get list watch\]$/m);
      expect(r.stdout).toMatch(/^pods\/log\s+\[\]\s+\[\]\s+\[get list watch\]$/m);
      expect(r.stdout).not.toMatch(/^secrets/m);
    });

    it("proves a controller's least-privilege RBAC suffices: its token lists pods and cannot read secrets", async () => {
      const token = await kubectl(['create', 'token', 'ctrl', '-n', 'team']);
      expect(token.stderr).toBe('');
      const sa = { ...server, token: token.stdout.trim() };
      const pods = await request(sa, 'GET', '/api/v1/namespaces/team/pods');
      expect(pods.status).toBe(200);
      expect(pods.body.kind).toBe('PodList');
      const secrets = await request(sa, 'GET', '/api/v1/namespaces/team/secrets');
      expect(secrets.status).toBe(403);
      expect(secrets.body.message).toBe(
        `secrets is forbidden: User "${SA}" cannot list resource "secrets" in API group "" in the namespace "team"`,
      );
      const asKubectl = await kubectl([`--token=${sa.token}`, 'get', 'pods', '-n', 'team']);
      expect(asKubectl.code).toBe(0);
      const whoami = await kubectl([`--token=${sa.token}`, 'auth', 'can-i', 'get', 'secrets', '-n', 'team']);
      expect(whoami.stdout.trim()).toBe('no');
      // Deleting the account invalidates its tokens.
      await kubectl(['delete', 'serviceaccount', 'ctrl', '-n', 'team']);
      expect((await request(sa, 'GET', '/api/v1/namespaces/team/pods')).status).toBe(401);
    });
  });
});

describe('opting out by name', () => {
  it('--anonymous-auth makes credential-less requests system:anonymous, forbidden beyond the public paths', async () => {
    const server = await startApiServer({ anonymousAuth: true });
    try {
      const res = await request({ ...server, token: undefined }, 'GET', '/api/v1/namespaces/default/secrets');
      expect(res.status).toBe(403);
      expect(res.body.message).toBe(
        'secrets is forbidden: User "system:anonymous" cannot list resource "secrets" in API group "" in the namespace "default"',
      );
      expect((await request({ ...server, token: undefined }, 'GET', '/readyz')).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('--insecure-allow-unauthenticated opens everything, and says so in the log', async () => {
    const warnings: string[] = [];
    const logger: Logger = {
      ...silentLogger,
      warn: (_o: unknown, msg?: string) => {
        warnings.push(String(msg));
      },
      child: () => logger,
    };
    const server = await startApiServer({ insecureAllowUnauthenticated: true, plainHttp: true, logger });
    try {
      expect(
        (await request({ ...server, token: undefined }, 'GET', '/api/v1/namespaces/default/secrets')).status,
      ).toBe(200);
      expect(
        (await request({ ...server, token: 'wrong' }, 'GET', '/api/v1/namespaces/default/secrets')).status,
      ).toBe(401);
      expect(warnings.join('\n')).toMatch(/INSECURE: --insecure-allow-unauthenticated/);
    } finally {
      await server.close();
    }
  });

  it('plain HTTP still needs the admin token', async () => {
    const server = await startApiServer({ plainHttp: true });
    try {
      expect((await request({ ...server, token: undefined }, 'GET', '/api/v1/namespaces')).status).toBe(401);
      expect((await request(server, 'GET', '/api/v1/namespaces')).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('AlwaysAllow lets any authenticated user read secrets', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kube-rx-auth-'));
    try {
      writeFileSync(join(dir, 'tokens'), 'erin-token,erin,1\n');
      const server = await startApiServer({
        authorizationMode: 'AlwaysAllow',
        tokenAuthFile: join(dir, 'tokens'),
        plainHttp: true,
      });
      try {
        expect(server.authorizationModes).toEqual(['AlwaysAllow']);
        expect(
          (await request({ ...server, token: 'erin-token' }, 'GET', '/api/v1/namespaces/default/secrets'))
            .status,
        ).toBe(200);
      } finally {
        await server.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses an unknown authorization mode, naming it', async () => {
    await expect(startApiServer({ authorizationMode: 'Node,RBAC' })).rejects.toThrow(/"Node"/);
  });
});

describe('clientCertificate', () => {
  it('issues CN=user and one O per group, for client authentication', async () => {
    const server = await startApiServer();
    try {
      const { certPem } = server.clientCertificate('frank', ['g1', 'g2']);
      const { X509Certificate } = await import('node:crypto');
      const cert = new X509Certificate(certPem);
      expect(cert.subject).toMatch(/O=g1\nO=g2\nCN=frank/);
      expect(cert.keyUsage).toEqual(['1.3.6.1.5.5.7.3.2']);
      expect(cert.checkIssued(new X509Certificate(server.caPem))).toBe(true);
    } finally {
      await server.close();
    }
  });
});
