// Tests for listers: get by namespace/name, list by selector, per namespace (client-go listers.go semantics).
import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../operators/errors.ts';
import { createIndexedStore } from '../../operators/indexed-store.ts';
import { labelSelectorFromObject, parseLabelSelector } from '../../operators/label-selector.ts';
import { lister } from '../../operators/lister.ts';
import type { KubeObject } from '../../operators/types.ts';

const obj = (namespace: string, name: string, labels: Record<string, string> = {}): KubeObject => ({
  metadata: { name, ...(namespace ? { namespace } : {}), labels },
});
const objects = [
  obj('prod', 'web-1', { app: 'web', tier: 'front' }),
  obj('prod', 'web-2', { app: 'web', tier: 'back' }),
  obj('prod', 'db-1', { app: 'db' }),
  obj('dev', 'web-1', { app: 'web' }),
  obj('', 'node-a', { zone: 'a' }),
];
const names = (list: KubeObject[]) =>
  list.map((o) => `${o.metadata?.namespace ?? ''}/${o.metadata?.name}`).sort();

describe.each([true, false])('lister (namespace index: %s)', (namespaceIndex) => {
  const l = lister(createIndexedStore({ namespaceIndex }).replace(objects));

  it.each<[string | undefined, string[]]>([
    [undefined, ['/node-a', 'dev/web-1', 'prod/db-1', 'prod/web-1', 'prod/web-2']],
    ['', ['/node-a', 'dev/web-1', 'prod/db-1', 'prod/web-1', 'prod/web-2']],
    ['app=web', ['dev/web-1', 'prod/web-1', 'prod/web-2']],
    ['app=web,tier notin (back)', ['dev/web-1', 'prod/web-1']],
    ['!app', ['/node-a']],
  ])('lists all namespaces with %j', (selector, want) => {
    expect(names(l.list(selector))).toEqual(want);
  });

  it.each<[string, string | undefined, string[]]>([
    ['prod', undefined, ['prod/db-1', 'prod/web-1', 'prod/web-2']],
    ['prod', 'app=web', ['prod/web-1', 'prod/web-2']],
    ['dev', 'tier', []],
    ['missing', undefined, []],
    ['', 'app=web', ['dev/web-1', 'prod/web-1', 'prod/web-2']],
  ])('lists namespace %j with %j', (ns, selector, want) => {
    expect(names(l.byNamespace(ns).list(selector))).toEqual(want);
  });

  it('gets by namespace and name, cluster-scoped by an empty namespace', () => {
    expect(l.get('prod', 'web-1')?.metadata?.labels).toEqual({ app: 'web', tier: 'front' });
    expect(l.get('dev', 'db-1')).toBeUndefined();
    expect(l.get('', 'node-a')?.metadata?.name).toBe('node-a');
    expect(l.byNamespace('dev').get('web-1')?.metadata?.namespace).toBe('dev');
    expect(l.byNamespace('dev').get('web-2')).toBeUndefined();
  });

  it('accepts parsed selectors, and the nothing selector lists nothing', () => {
    expect(names(l.list(parseLabelSelector('app in (db)')))).toEqual(['prod/db-1']);
    expect(l.list(labelSelectorFromObject(null))).toEqual([]);
    expect(l.byNamespace('prod').list(labelSelectorFromObject(null))).toEqual([]);
  });

  it('rejects a selector that does not parse', () => {
    expect(() => l.list('app in (')).toThrow(InvalidInputError);
  });
});
