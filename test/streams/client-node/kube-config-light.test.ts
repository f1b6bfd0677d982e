// Tests the in-thread kubeconfig loader against client-node's KubeConfig: the same description and request options for every plugin-free user.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidConfigError } from '../../../operators/errors.ts';
import { loadLightKubeConfig } from '../../../streams/client-node/kube-config-light.ts';
import {
  describeKubeConfig,
  type KubeConfigClass,
  loadKubeConfig,
  type PortableKubeConfigSource,
  resolveRequestOptions,
} from '../../../streams/client-node/kube-config-resolve.ts';

let dir: string;
const b64 = (s: string) => Buffer.from(s).toString('base64');

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'kube-rx-light-'));
  mkdirSync(join(dir, 'certs'));
  writeFileSync(join(dir, 'certs', 'ca.crt'), 'CA FROM FILE');
  writeFileSync(join(dir, 'certs', 'client.crt'), 'CERT FROM FILE');
  writeFileSync(join(dir, 'certs', 'client.key'), 'KEY FROM FILE');
  writeFileSync(join(dir, 'token'), 'token-from-file');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function kubeconfig(user: string, cluster = '', context = '{cluster: c, user: u, namespace: apps}'): string {
  return [
    'apiVersion: v1',
    'kind: Config',
    `clusters: [{name: c, cluster: {server: "https://127.0.0.1:6443/"${cluster ? `, ${cluster}` : ''}}}]`,
    `users: [{name: u, user: ${user}}]`,
    `contexts: [{name: x, context: ${context}}, {name: other, context: {cluster: c, user: u}}]`,
    'current-context: x',
  ].join('\n');
}

/** What client-node's own KubeConfig says of the source: description and request options. */
async function viaClientNode(source: PortableKubeConfigSource) {
  const kc = loadKubeConfig(source, KubeConfig as unknown as KubeConfigClass);
  return {
    description: describeKubeConfig(kc),
    options: await resolveRequestOptions(kc, KubeConfig as unknown as KubeConfigClass),
  };
}

async function viaLight(source: PortableKubeConfigSource) {
  const light = loadLightKubeConfig(source);
  if (!light) return undefined;
  return { description: light.description, options: await light.options() };
}

describe('loadLightKubeConfig gives what client-node gives', () => {
  it.each([
    ['an inline token', '{token: abc}', ''],
    ['a token file in the user', `{token-file: "${'TOKENFILE'}"}`, ''],
    [
      'a tokenFile auth provider (in-cluster style)',
      '{auth-provider: {name: tokenFile, config: {tokenFile: TOKENFILE}}}',
      '',
    ],
    ['basic auth', '{username: alice, password: s3cret}', ''],
    [
      'client certificate data',
      `{client-certificate-data: ${b64('CERT')}, client-key-data: ${b64('KEY')}}`,
      '',
    ],
    [
      'client certificate files (relative to the kubeconfig)',
      '{client-certificate: certs/client.crt, client-key: certs/client.key}',
      '',
    ],
    ['a CA file (relative)', '{token: t}', 'certificate-authority: certs/ca.crt'],
    ['inline CA data', '{token: t}', `certificate-authority-data: ${b64('CA')}`],
    ['skip TLS verification', '{token: t}', 'insecure-skip-tls-verify: true'],
    ['a TLS server name', '{token: t}', 'tls-server-name: api.example'],
    ['impersonation', '{token: t, as: bob}', ''],
    ['a proxy', '{token: t}', 'proxy-url: "http://127.0.0.1:3128"'],
    ['no credentials', '{}', ''],
  ])('%s', async (_name, user, cluster) => {
    const path = join(dir, `config-${Math.random().toString(36).slice(2)}`);
    writeFileSync(path, kubeconfig(user.replaceAll('TOKENFILE', join(dir, 'token')), cluster));
    const source = { from: 'file', path } as const;
    const light = await viaLight(source);
    expect(light).toBeDefined();
    expect(light).toEqual(await viaClientNode(source));
  });

  it('a plain http server, a context chosen by name, and a user the context does not name', async () => {
    const http = kubeconfig('{token: t}').replace('https://127.0.0.1:6443/', 'http://127.0.0.1:8080');
    for (const source of [
      { from: 'string', yaml: http },
      { from: 'string', yaml: kubeconfig('{token: t}'), context: 'other' },
      { from: 'string', yaml: kubeconfig('{token: t}', '', '{cluster: c}') },
    ] as const) {
      expect(await viaLight(source)).toEqual(await viaClientNode(source));
    }
  });

  it('merges $KUBECONFIG files as client-node does: the first current-context wins the default, entries add up', async () => {
    const a = join(dir, 'a.yaml');
    const b = join(dir, 'b.yaml');
    writeFileSync(a, kubeconfig('{token: from-a}'));
    writeFileSync(
      b,
      [
        'clusters: [{name: c2, cluster: {server: "https://10.0.0.1"}}]',
        'users: [{name: u2, user: {token: from-b}}]',
        'contexts: [{name: y, context: {cluster: c2, user: u2}}]',
        'current-context: y',
      ].join('\n'),
    );
    const saved = process.env.KUBECONFIG;
    process.env.KUBECONFIG = `${a}:${b}`;
    try {
      const source = { from: 'default' } as const;
      expect(await viaLight(source)).toEqual(await viaClientNode(source));
      expect((await viaLight(source))?.description.server).toBe('https://10.0.0.1');
      writeFileSync(b, kubeconfig('{token: again}'));
      // a name in both files is client-node's duplicate error
      expect(() => loadLightKubeConfig(source)).toThrow('Duplicate cluster: c');
      await expect(viaClientNode(source)).rejects.toThrow('Duplicate cluster: c');
    } finally {
      if (saved === undefined) delete process.env.KUBECONFIG;
      else process.env.KUBECONFIG = saved;
    }
  });

  it('in-cluster: service host and port, CA file, token file and namespace under a path prefix', async () => {
    const sa = join(dir, 'in-cluster', 'var/run/secrets/kubernetes.io/serviceaccount');
    mkdirSync(sa, { recursive: true });
    writeFileSync(join(sa, 'token'), 'sa-token');
    writeFileSync(join(sa, 'ca.crt'), 'SA CA');
    writeFileSync(join(sa, 'namespace'), 'team-a');
    const saved = { ...process.env };
    process.env.KUBERNETES_SERVICE_HOST = 'fd00::1';
    process.env.KUBERNETES_SERVICE_PORT = '443';
    try {
      const source = { from: 'cluster', pathPrefix: join(dir, 'in-cluster') } as const;
      const light = await viaLight(source);
      expect(light).toEqual(await viaClientNode(source));
      expect(light?.description.server).toBe('https://[fd00::1]:443');
      expect(light?.description.namespace).toBe('team-a');
      delete process.env.KUBERNETES_SERVICE_HOST;
      expect(() => loadLightKubeConfig(source)).toThrow(InvalidConfigError);
    } finally {
      process.env = saved;
    }
  });

  it.each([
    ['an exec plugin', '{exec: {command: get-token, apiVersion: client.authentication.k8s.io/v1}}'],
    ['an oidc auth provider', '{auth-provider: {name: oidc, config: {id-token: x}}}'],
    ['a gcp auth provider', '{auth-provider: {name: gcp, config: {}}}'],
    ['an auth provider with no token file', '{auth-provider: {name: custom, config: {}}}'],
  ])('leaves %s to the kubeconfig host', (_name, user) => {
    expect(loadLightKubeConfig({ from: 'string', yaml: kubeconfig(user) })).toBeUndefined();
  });

  it("throws client-node's errors for bad entries, and names the field for a context without a server", () => {
    const bad = 'apiVersion: v1\nkind: Config\ncontexts: [{name: x, context: {}}]\ncurrent-context: x\n';
    expect(() => loadLightKubeConfig({ from: 'string', yaml: bad })).toThrow(
      'contexts[0].context.cluster is missing',
    );
    const noCluster = kubeconfig('{token: t}', '', '{cluster: missing, user: u}');
    expect(() => loadLightKubeConfig({ from: 'string', yaml: noCluster })).toThrow(
      expect.objectContaining({ field: 'cluster.server' }),
    );
    expect(() => loadLightKubeConfig({ from: 'file', path: join(dir, 'absent') })).toThrow(
      expect.objectContaining({ code: 'ENOENT' }),
    );
  });
});
