// NotificationBuffer: the per-key merge table, hand-out order and the initial-add count behind a handler's has-synced.
import { describe, expect, it } from 'vitest';
import type { InformerNotification } from '../../operators/informer-notification.ts';
import { NotificationBuffer } from '../../operators/notification-buffer.ts';
import { DeletedFinalStateUnknown, type KubeObject } from '../../operators/types.ts';

const obj = (name: string, rv: string): KubeObject => ({ metadata: { name, resourceVersion: rv } });
const add = (name: string, rv: string, initial = false): InformerNotification => ({
  type: 'add',
  key: name,
  object: obj(name, rv),
  isInInitialList: initial,
});
const upd = (name: string, from: string, to: string): InformerNotification => ({
  type: 'update',
  key: name,
  oldObject: obj(name, from),
  newObject: obj(name, to),
  isSync: from === to,
});
const del = (name: string, rv: string): InformerNotification => ({
  type: 'delete',
  key: name,
  object: obj(name, rv),
});
const tomb = (name: string, rv: string): InformerNotification => ({
  type: 'delete',
  key: name,
  object: new DeletedFinalStateUnknown(name, obj(name, rv)),
});

/** A short text per notification: `add@2`, `upd 1→3`, `del@4`, `tomb@4`. */
function show(n: InformerNotification): string {
  if (n.type === 'add') return `add@${n.object.metadata?.resourceVersion}${n.isInInitialList ? '*' : ''}`;
  if (n.type === 'update')
    return `upd ${n.oldObject.metadata?.resourceVersion}→${n.newObject.metadata?.resourceVersion}${n.isSync ? ' sync' : ''}`;
  const o = n.object;
  return o instanceof DeletedFinalStateUnknown
    ? `tomb@${o.obj?.metadata?.resourceVersion}`
    : `del@${o.metadata?.resourceVersion}`;
}

function drain(buffer: NotificationBuffer): string[] {
  const out: string[] = [];
  for (let n = buffer.shift(); n; n = buffer.shift()) out.push(show(n));
  return out;
}

describe('NotificationBuffer merge table (one key)', () => {
  it.each([
    ['nothing + add', [add('a', '2')], ['add@2']],
    ['nothing + update', [upd('a', '1', '2')], ['upd 1→2']],
    ['nothing + delete', [del('a', '2')], ['del@2']],
    ['add + add', [add('a', '1'), add('a', '2')], ['add@2']],
    ['add + update', [add('a', '1'), upd('a', '1', '2')], ['add@2']],
    ['add + delete: never seen, nothing', [add('a', '1'), del('a', '2')], []],
    ['update + add', [upd('a', '1', '2'), add('a', '3')], ['upd 1→3']],
    ['update + update keeps the first old', [upd('a', '1', '2'), upd('a', '2', '3')], ['upd 1→3']],
    ['update + delete', [upd('a', '1', '2'), del('a', '3')], ['del@3']],
    ['delete + add', [del('a', '1'), add('a', '2')], ['del@1', 'add@2']],
    ['delete + update becomes an add', [del('a', '1'), upd('a', '1', '2')], ['del@1', 'add@2']],
    ['delete + delete: the older real one wins', [del('a', '1'), del('a', '2')], ['del@1']],
    ['tombstone + delete: the real one wins', [tomb('a', '1'), del('a', '2')], ['del@2']],
    ['delete + tombstone: the real one stays', [del('a', '1'), tomb('a', '2')], ['del@1']],
    ['tombstone + tombstone: the newer wins', [tomb('a', '1'), tomb('a', '2')], ['tomb@2']],
    ['delete, add + add', [del('a', '1'), add('a', '2'), add('a', '3')], ['del@1', 'add@3']],
    ['delete, add + update', [del('a', '1'), add('a', '2'), upd('a', '2', '3')], ['del@1', 'add@3']],
    ['delete, add + delete', [del('a', '1'), add('a', '2'), del('a', '3')], ['del@1']],
    ['sync + sync stays a sync', [upd('a', '1', '1'), upd('a', '1', '1')], ['upd 1→1 sync']],
    ['sync + real update is not a sync', [upd('a', '1', '1'), upd('a', '1', '2')], ['upd 1→2']],
    ['real update + sync is not a sync', [upd('a', '1', '2'), upd('a', '2', '2')], ['upd 1→2']],
  ])('%s', (_name, pushes, expected) => {
    const buffer = new NotificationBuffer();
    for (const n of pushes) buffer.push(n);
    expect(buffer.size).toBe(expected.length);
    expect(buffer.pending().map(show)).toEqual(expected);
    expect(drain(buffer)).toEqual(expected);
    expect(buffer.size).toBe(0);
    expect(buffer.keys).toBe(0);
  });
});

describe('NotificationBuffer order and counts', () => {
  it('hands keys out in the order of their oldest pending notification; merges keep the place', () => {
    const buffer = new NotificationBuffer();
    buffer.push(add('a', '1'));
    buffer.push(add('b', '2'));
    buffer.push(upd('a', '1', '3'));
    buffer.push(add('c', '4'));
    expect(drain(buffer)).toEqual(['add@3', 'add@2', 'add@4']);
  });

  it('a key whose entry vanished goes to the back when it comes again', () => {
    const buffer = new NotificationBuffer();
    buffer.push(add('a', '1'));
    buffer.push(add('b', '2'));
    buffer.push(del('a', '3'));
    buffer.push(add('a', '4'));
    expect(buffer.pending().map((n) => n.key)).toEqual(['b', 'a']);
  });

  it('keeps a key with a delete and an add in place after the delete is taken', () => {
    const buffer = new NotificationBuffer();
    buffer.push(del('a', '1'));
    buffer.push(add('b', '2'));
    buffer.push(add('a', '3'));
    expect(show(buffer.shift()!)).toBe('del@1');
    expect(show(buffer.shift()!)).toBe('add@3');
    expect(show(buffer.shift()!)).toBe('add@2');
  });

  it('counts pending initial adds through merges and drops', () => {
    const buffer = new NotificationBuffer();
    buffer.push(add('a', '1', true));
    buffer.push(add('b', '1', true));
    expect(buffer.initialPending).toBe(2);
    buffer.push(upd('a', '1', '2'));
    expect(buffer.initialPending).toBe(2);
    expect(show(buffer.pending()[0]!)).toBe('add@2*');
    buffer.push(del('b', '3'));
    expect(buffer.initialPending).toBe(1);
    buffer.shift();
    expect(buffer.initialPending).toBe(0);
    buffer.push(add('c', '1', true));
    buffer.clear();
    expect(buffer.initialPending).toBe(0);
    expect(buffer.shift()).toBeUndefined();
  });
});
