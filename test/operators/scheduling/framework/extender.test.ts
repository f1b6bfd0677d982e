// extendersBinding: the first interested binder extender binds; an ignorable failure passes to the next; none → the Bind plugins.
import { describe, expect, it } from 'vitest';
import { type Extender, extendersBinding } from '../../../../operators/scheduling/framework/extender.ts';
import { makePod } from './fixtures.ts';

function binder(
  name: string,
  o: { binder?: boolean; interested?: boolean; ignorable?: boolean; fail?: boolean },
  log: string[],
): Extender {
  return {
    name: () => name,
    isFilter: () => false,
    isPrioritizer: () => false,
    isBinder: () => o.binder ?? true,
    isInterested: () => o.interested ?? true,
    isIgnorable: () => o.ignorable ?? false,
    filter: async () => ({ feasible: [], failed: {}, failedAndUnresolvable: {} }),
    prioritize: async () => ({ scores: [], weight: 1 }),
    bind: async (pod, node) => {
      log.push(`${name}:${pod.metadata.name}->${node}`);
      if (o.fail) throw new Error(`${name} failed`);
    },
  };
}

describe('extendersBinding', () => {
  const signal = new AbortController().signal;
  it.each<[string, Parameters<typeof binder>[1][], { bound: boolean; error?: string }, string[]]>([
    ['no extenders', [], { bound: false }, []],
    ['an extender that does not bind', [{ binder: false }], { bound: false }, []],
    ['an uninterested binder', [{ interested: false }], { bound: false }, []],
    ['the first binder binds', [{}, {}], { bound: true }, ['e0:p->n1']],
    ['a failing binder is final', [{ fail: true }, {}], { bound: true, error: 'e0 failed' }, ['e0:p->n1']],
    [
      'an ignorable failing binder passes to the next',
      [{ fail: true, ignorable: true }, {}],
      { bound: true },
      ['e0:p->n1', 'e1:p->n1'],
    ],
    ['only ignorable failures: not bound', [{ fail: true, ignorable: true }], { bound: false }, ['e0:p->n1']],
  ])('%s', async (_name, specs, want, calls) => {
    const log: string[] = [];
    const out = await extendersBinding(
      specs.map((s, i) => binder(`e${i}`, s, log)),
      makePod('p'),
      'n1',
      signal,
    );
    expect(out.bound).toBe(want.bound);
    expect(out.error?.message).toBe(want.error);
    expect(log).toEqual(calls);
  });
});
