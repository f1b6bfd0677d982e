// The pod-config command end to end: real manifest files and a loopback manifest URL, printed as JSON lines.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../operators/logger.ts';
import type { Pod, PodUpdate } from '../../../operators/pod-config/types.ts';
import { podConfigCommand } from '../../../src/kubelet/pod-config-command.ts';
import { parseManifestUrlHeader } from '../../../src/kubelet/pod-source-flags.ts';
import { FakeApiServer } from '../../../src/testing/fake-api-server.ts';
import { until } from '../../helpers/until.ts';

const manifest = (name: string, image = 'img') =>
  JSON.stringify({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name },
    spec: { containers: [{ name: 'c', image }] },
  });

let dir: string;
let server: Server | undefined;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kube-rx-pod-config-cmd-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = undefined;
});

/** Runs the command with captured stdout until `stop()`. */
function run(args: string[], deps: Parameters<typeof podConfigCommand>[0] = {}) {
  const lines: string[] = [];
  const controller = new AbortController();
  const done = podConfigCommand({
    stdout: { write: (line: string) => lines.push(line) },
    logger: silentLogger,
    signal: controller.signal,
    ...deps,
  })
    .exitOverride()
    .parseAsync(args, { from: 'user' });
  const updates = () => lines.map((l) => JSON.parse(l) as PodUpdate);
  return { lines, updates, done, stop: () => controller.abort() };
}

const summary = (u: PodUpdate) => `${u.op} ${u.source} ${u.pods.map((p) => p.metadata?.name).join(',')}`;

describe('kube-rx pod-config', () => {
  it('prints one JSON line per update from the manifest directory and URL, and follows edits', async () => {
    await writeFile(join(dir, 'a.yaml'), manifest('a'));
    server = createServer((_req, res) => res.end(manifest('web')));
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const cmd = run([
      '--pod-manifest-path',
      dir,
      '--manifest-url',
      url,
      '--node-name',
      'Node-1',
      '--manifest-url-header',
      'A:b',
    ]);
    await until(() => cmd.updates().length >= 2, 'both sources');
    expect(cmd.updates().map(summary).sort()).toEqual(['ADD file a-node-1', 'ADD http web-node-1']);
    expect(
      cmd.lines.every((l) => l.endsWith('\n') && Object.keys(JSON.parse(l)).join() === 'op,source,pods'),
    ).toBe(true);

    await writeFile(join(dir, 'a.yaml'), manifest('a', 'img:2'));
    await until(() => cmd.updates().length >= 4, 'the edit');
    expect(cmd.updates().slice(2).map(summary)).toEqual(['REMOVE file a-node-1', 'ADD file a-node-1']);
    cmd.stop();
    await cmd.done;
  });

  it('refuses --kubeconfig while no API server adapter is wired, naming the flag', async () => {
    const cmd = run(['--kubeconfig', '/nowhere', '--node-name', 'n']);
    await expect(cmd.done).rejects.toMatchObject({ code: 'KUBE_RX_INVALID_CONFIG', field: '--kubeconfig' });
  });

  it('runs the API server source through an injected adapter', async () => {
    const api = new FakeApiServer<Pod>();
    api.upsert({ metadata: { name: 'bound', namespace: 'default', uid: 'u1' }, spec: { nodeName: 'n' } });
    const cmd = run(['--kubeconfig', '/somewhere', '--node-name', 'n'], {
      apiserverFromKubeconfig: () => ({ listerWatcher: api }),
    });
    await until(() => cmd.updates().length >= 1, 'the api source');
    expect(cmd.updates().map(summary)).toEqual(['ADD api bound']);
    cmd.stop();
    await cmd.done;
    expect(api.openWatches).toBe(0);
  });

  it.each([
    [['--node-name', 'n'], '--pod-manifest-path'],
    [['--pod-manifest-path', '/x', '--file-check-frequency', 'soon'], '--file-check-frequency'],
    [['--manifest-url', 'http://x', '--manifest-url-header', 'novalue'], '--manifest-url-header'],
    [['--pod-manifest-path', '/x', '--mode', 'Sometimes'], '--mode'],
  ])('refuses bad flags %j, naming %s', async (args, field) => {
    const cmd = run(args);
    await expect(cmd.done).rejects.toMatchObject({ field });
  });
});

describe('parseManifestUrlHeader', () => {
  it.each<[string, [string, string][]]>([
    ['a:hello', [['a', 'hello']]],
    [
      'a:hello,b:again,c:world',
      [
        ['a', 'hello'],
        ['b', 'again'],
        ['c', 'world'],
      ],
    ],
    ['Authorization:Bearer x:y', [['Authorization', 'Bearer x:y']]],
    ['k:', [['k', '']]],
  ])('parses %s', (text, expected) => {
    expect(parseManifestUrlHeader(text)).toEqual(expected);
  });

  it('appends to earlier occurrences', () => {
    expect(parseManifestUrlHeader('b:beautiful', [['b', 'again']])).toEqual([
      ['b', 'again'],
      ['b', 'beautiful'],
    ]);
  });
});
