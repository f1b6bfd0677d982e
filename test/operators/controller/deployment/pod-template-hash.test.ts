// Tests: the pod-template-hash (FNV-32a, safe encoding, collision count) and template equality ignoring the hash label.
import { describe, expect, it } from 'vitest';
import {
  equalIgnoreHash,
  fnv32a,
  podTemplateHash,
  safeEncodeString,
} from '../../../../operators/controller/deployment/pod-template-hash.ts';

const bytes = (s: string) => new TextEncoder().encode(s);

describe('fnv32a', () => {
  it.each([
    ['', 0x811c9dc5],
    ['a', 0xe40c292c],
    ['foobar', 0xbf9cf968],
  ])('hashes %j as the FNV-1a reference vectors do', (s, want) => {
    expect(fnv32a(bytes(s))).toBe(want);
  });
});

describe('safeEncodeString', () => {
  it.each([
    // each character maps to the safe alphabet at (code mod 27): '0' (48) at 21 is '4', ..., '9' (57) at 3 is 'f'
    ['0123456789', '456789bcdf'],
    ['', ''],
    ['abc', 'vwx'],
  ])('encodes %j as %j', (s, want) => {
    expect(safeEncodeString(s)).toBe(want);
  });

  it('never yields vowels or the look-alike digits 0, 1 and 3', () => {
    expect(safeEncodeString('4294967295')).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]+$/);
  });
});

describe('podTemplateHash', () => {
  const template = {
    metadata: { labels: { app: 'web' } },
    spec: { containers: [{ name: 'c', image: 'nginx' }] },
  };

  it('is the safe encoding of the decimal FNV-32a of the canonical template', () => {
    const h = podTemplateHash(template, undefined);
    expect(h).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]{1,10}$/);
    const sum = fnv32a(
      bytes('{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"image":"nginx","name":"c"}]}}'),
    );
    expect(h).toBe(safeEncodeString(String(sum)));
  });

  it('does not depend on key order or on empty maps and lists', () => {
    const reordered = {
      spec: { containers: [{ image: 'nginx', name: 'c', env: [] }] },
      metadata: { annotations: {}, labels: { app: 'web' } },
    };
    expect(podTemplateHash(reordered, undefined)).toBe(podTemplateHash(template, undefined));
  });

  it.each([0, 1, 2, 7])('changes with collision count %i (and 0 differs from unset)', (n) => {
    expect(podTemplateHash(template, n)).not.toBe(podTemplateHash(template, undefined));
    expect(podTemplateHash(template, n)).not.toBe(podTemplateHash(template, n + 1));
  });

  it('changes with the template', () => {
    const other = { ...template, spec: { containers: [{ name: 'c', image: 'nginx:2' }] } };
    expect(podTemplateHash(other, undefined)).not.toBe(podTemplateHash(template, undefined));
  });
});

describe('equalIgnoreHash', () => {
  const spec = { containers: [{ name: 'c', image: 'nginx' }] };
  it.each([
    [
      'same but for the hash label',
      { metadata: { labels: { app: 'web', 'pod-template-hash': 'abc' } }, spec },
      { metadata: { labels: { app: 'web' } }, spec },
      true,
    ],
    [
      'different hash labels only',
      { metadata: { labels: { app: 'web', 'pod-template-hash': 'abc' } }, spec },
      { metadata: { labels: { app: 'web', 'pod-template-hash': 'xyz' } }, spec },
      true,
    ],
    [
      'a label differs',
      { metadata: { labels: { app: 'web', tier: 'a' } }, spec },
      { metadata: { labels: { app: 'web' } }, spec },
      false,
    ],
    [
      'only the hash label on one side, no labels on the other',
      { metadata: { labels: { 'pod-template-hash': 'abc' } }, spec },
      { metadata: {}, spec },
      true,
    ],
    [
      'the spec differs',
      { metadata: { labels: { app: 'web' } }, spec },
      { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx:2' }] } },
      false,
    ],
  ])('%s → %s', (_name, a, b, want) => {
    expect(equalIgnoreHash(a, b)).toBe(want);
    expect(equalIgnoreHash(b, a)).toBe(want);
  });
});
