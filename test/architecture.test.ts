// Architecture: reads every import specifier and checks the layering operators ← streams ← src.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..');
const layers = ['operators', 'streams', 'src', 'test', 'bench'] as const;
type Layer = (typeof layers)[number];

/** Which layers each layer may import from (itself always allowed). */
const allowed: Record<Layer, Layer[]> = {
  operators: [],
  streams: ['operators'],
  src: ['operators', 'streams'],
  test: ['operators', 'streams', 'src'],
  bench: ['operators', 'streams', 'src', 'test'],
};

function* files(dir: string): Generator<string> {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) yield* files(path);
    else if (path.endsWith('.ts')) yield path;
  }
}

function layerOf(path: string): Layer | undefined {
  const top = relative(root, path).split(/[\\/]/)[0];
  return layers.find((l) => l === top);
}

function specifiers(source: string): string[] {
  const found: string[] = [];
  const re =
    /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|import\s+['"]([^'"]+)['"]/g;
  for (const m of source.matchAll(re)) found.push((m[1] ?? m[2] ?? m[3])!);
  return found;
}

const all = layers.flatMap((l) => {
  try {
    return [...files(join(root, l))];
  } catch {
    return [];
  }
});

describe('architecture', () => {
  it('finds the source files', () => {
    expect(all.some((f) => layerOf(f) === 'operators')).toBe(true);
    expect(all.some((f) => layerOf(f) === 'streams')).toBe(true);
    expect(all.some((f) => layerOf(f) === 'src')).toBe(true);
  });

  it.each(all.map((f) => [relative(root, f), f]))(
    '%s imports only from the layers below it',
    (_name, file) => {
      const from = layerOf(file)!;
      const violations = specifiers(readFileSync(file, 'utf8'))
        .filter((s) => s.startsWith('.'))
        .map((s) => ({ s, to: layerOf(resolve(dirname(file), s)) }))
        .filter(({ to }) => to !== undefined && to !== from && !allowed[from].includes(to))
        .map(({ s, to }) => `${s} (${from} → ${to})`);
      expect(violations).toEqual([]);
    },
  );

  it('only streams/client-node imports @kubernetes/client-node at runtime (bench and tests may, for comparison)', () => {
    const offenders = all
      .filter((f) => ['operators', 'streams', 'src'].includes(layerOf(f)!))
      .filter((f) => !relative(root, f).startsWith(join('streams', 'client-node')))
      .filter((f) =>
        /^\s*import\s+(?!type\b)[^;]*['"]@kubernetes\/client-node['"]/m.test(readFileSync(f, 'utf8')),
      )
      .map((f) => relative(root, f));
    expect(offenders).toEqual([]);
  });

  it('operators do no I/O and read no wall clock', () => {
    const offenders = all
      .filter((f) => layerOf(f) === 'operators')
      .filter((f) => {
        const s = readFileSync(f, 'utf8');
        return /from ['"]node:(fs|http|https|net|child_process)['"]|Date\.now\(\)|\bsetTimeout\(/.test(s);
      })
      .map((f) => relative(root, f));
    expect(offenders).toEqual([]);
  });
});
