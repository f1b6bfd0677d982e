// filePodSource against real files in a temp directory: add, edit, rename, delete, bad files, re-reads, teardown.
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Pod } from '../../../operators/pod-config/types.ts';
import { VirtualClock } from '../../../src/testing/virtual-clock.ts';
import { filePodSource } from '../../../streams/pod-sources/file.ts';
import { until } from '../../helpers/until.ts';

const NODE = 'random-test-hostname';

const manifest = (name: string, image = 'test/image', uid?: string) =>
  JSON.stringify({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'mynamespace', ...(uid ? { uid } : {}) },
    spec: { containers: [{ name: 'image', image }] },
  });

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kube-rx-file-source-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Subscribes and records every emitted set as `name=image` strings. */
function record(config: Parameters<typeof filePodSource>[0]) {
  const sets: Pod[][] = [];
  const sub = filePodSource(config).subscribe((pods) => sets.push(pods));
  const names = () =>
    sets.map((pods) => pods.map((p) => `${p.metadata?.name}=${p.spec?.containers?.[0]?.image}`));
  return { sets, sub, names };
}

const settle = () => new Promise((r) => setTimeout(r, 150));

describe('filePodSource', () => {
  it('emits an empty set for a path that does not exist (TestUpdateOnNonExistentFile)', async () => {
    const { sets, sub } = record({ path: join(dir, 'missing'), nodeName: NODE });
    await until(() => sets.length > 0, 'the first set');
    expect(sets[0]).toEqual([]);
    sub.unsubscribe();
  });

  it('emits an empty set for an empty directory (TestExtractFromEmptyDir)', async () => {
    const { sets, sub } = record({ path: dir, nodeName: NODE });
    await until(() => sets.length > 0, 'the first set');
    expect(sets[0]).toEqual([]);
    sub.unsubscribe();
  });

  it('reads a manifest file that exists already, with the static-pod defaults (TestReadPodsFromFileExistAlready)', async () => {
    const file = join(dir, 'test_pod_config');
    await writeFile(file, manifest('test', 'test/image', '12345'));
    const { sets, sub } = record({ path: file, nodeName: NODE });
    await until(() => sets.length > 0, 'the first set');
    expect(sets[0]).toHaveLength(1);
    expect(sets[0]![0]!.metadata).toMatchObject({
      name: `test-${NODE}`,
      uid: '12345',
      namespace: 'mynamespace',
      annotations: { 'kubernetes.io/config.hash': '12345' },
    });
    expect(sets[0]![0]!.spec?.nodeName).toBe(NODE);
    expect(sets[0]![0]!.status?.phase).toBe('Pending');
    sub.unsubscribe();
  });

  it('emits nothing for a single file of bad data (TestExtractFromBadDataFile) and logs its path and reason', async () => {
    const file = join(dir, 'test_pod_config');
    await writeFile(file, Buffer.from([1, 2, 3]));
    const warnings: unknown[] = [];
    const logger = logRecorder(warnings);
    const { sets, sub } = record({ path: file, nodeName: NODE, logger });
    await until(() => warnings.length > 0, 'the warning');
    await settle();
    expect(sets).toEqual([]);
    expect(warnings[0]).toMatchObject({ file, reason: expect.stringContaining(file) });
    sub.unsubscribe();
  });

  it('picks up a single manifest file created later (TestReadPodsFromFileExistLater)', async () => {
    const file = join(dir, 'test_pod_config_0');
    const { sub, names } = record({ path: file, nodeName: NODE, checkFrequencyMs: 60_000 });
    await until(() => names().length > 0, 'the empty set');
    await writeFile(file, manifest('test'));
    await until(() => names().at(-1)?.length === 1, 'the pod');
    expect(names().at(-1)).toEqual([`test-${NODE}=test/image`]);
    sub.unsubscribe();
  });

  it('follows a directory: add, edit, rename and delete, ignoring dot-files and subdirectories', async () => {
    await writeFile(join(dir, 'a.yaml'), manifest('a'));
    await writeFile(join(dir, '.hidden.yaml'), manifest('hidden'));
    await mkdir(join(dir, 'sub'));
    await writeFile(join(dir, 'sub', 'c.yaml'), manifest('c'));
    const { sub, names } = record({ path: dir, nodeName: NODE, checkFrequencyMs: 60_000 });
    const last = () => names().at(-1)?.join(' ');
    await until(() => last() === `a-${NODE}=test/image`, 'the first set');

    await writeFile(join(dir, 'b.yaml'), manifest('b'));
    await until(() => last() === `a-${NODE}=test/image b-${NODE}=test/image`, 'the added manifest');

    await writeFile(join(dir, 'b.yaml'), manifest('b', 'image2'));
    await until(() => last() === `a-${NODE}=test/image b-${NODE}=image2`, 'the edited manifest');

    const beforeRename = names().length;
    await rename(join(dir, 'b.yaml'), join(dir, 'b2.yaml'));
    await until(
      () =>
        names()
          .slice(beforeRename)
          .some((set) => set.join(' ') === `a-${NODE}=test/image`),
      'the old name gone',
    );
    await until(() => last() === `a-${NODE}=test/image b-${NODE}=image2`, 'the new name read');

    await rm(join(dir, 'a.yaml'));
    await until(() => last() === `b-${NODE}=image2`, 'the deleted manifest');
    await rm(join(dir, 'b2.yaml'));
    await until(() => last() === '', 'the empty directory');
    sub.unsubscribe();
  });

  it('keeps every good pod when bad files appear, and a good pod whose file turns bad', async () => {
    await writeFile(join(dir, 'good.yaml'), manifest('good'));
    const warnings: unknown[] = [];
    const { sub, names } = record({
      path: dir,
      nodeName: NODE,
      checkFrequencyMs: 60_000,
      logger: logRecorder(warnings),
    });
    const last = () => names().at(-1)?.join(' ');
    await until(() => last() === `good-${NODE}=test/image`, 'the first set');
    await writeFile(join(dir, 'bad.yaml'), 'kind: Pod\napiVersion: v1\nmetadata: {}\n');
    await writeFile(join(dir, 'junk.json'), '{not json');
    await until(() => warnings.length >= 2, 'the warnings');
    await writeFile(join(dir, 'good.yaml'), 'garbage: [');
    await until(() => warnings.length >= 3, 'the third warning');
    await settle();
    expect(last()).toBe(`good-${NODE}=test/image`);
    expect(warnings).toContainEqual(expect.objectContaining({ file: join(dir, 'bad.yaml') }));
    sub.unsubscribe();
  });

  it('re-reads the directory every check period without a watch, in virtual time', async () => {
    const clock = new VirtualClock();
    const { sub, names } = record({
      path: dir,
      nodeName: NODE,
      watch: false,
      checkFrequencyMs: 20_000,
      scheduler: clock.scheduler,
    });
    await until(() => names().length === 1, 'the first set');
    await writeFile(join(dir, 'late.yaml'), manifest('late'));
    await settle();
    expect(names()).toHaveLength(1);
    clock.advance(19_999);
    await settle();
    expect(names()).toHaveLength(1);
    clock.advance(1);
    await until(() => names().length === 2, 'the periodic re-read');
    expect(names()[1]).toEqual([`late-${NODE}=test/image`]);
    sub.unsubscribe();
    expect(clock.pending).toBe(0);
  });

  it('releases the watcher and every timer on unsubscribe', async () => {
    await writeFile(join(dir, 'a.yaml'), manifest('a'));
    await settle();
    const handles = () =>
      process
        .getActiveResourcesInfo()
        .filter((r) => ['FSEventWrap', 'Timeout', 'FSReqPromise', 'FSReqCallback'].includes(r))
        .sort();
    const before = handles();
    const { sub, names } = record({ path: dir, nodeName: NODE, checkFrequencyMs: 60_000 });
    await until(() => names().length > 0, 'the first set');
    expect(handles()).toContain('FSEventWrap');
    sub.unsubscribe();
    await settle();
    expect(handles()).toEqual(before);
    const count = names().length;
    await writeFile(join(dir, 'b.yaml'), manifest('b'));
    await settle();
    expect(names()).toHaveLength(count);
  });
});

function logRecorder(warnings: unknown[]) {
  const logger = {
    trace: () => {},
    debug: () => {},
    info: () => {},
    warn: (o: unknown) => {
      warnings.push(o);
    },
    error: () => {},
    child: () => logger,
  };
  return logger as unknown as import('../../../operators/logger.ts').Logger;
}
