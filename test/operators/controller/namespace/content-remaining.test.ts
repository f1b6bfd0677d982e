// Tests: what remains of one resource after the namespace controller deleted it (upstream's deleteAllContentForGroupVersionResource outcomes).
import { describe, expect, it } from 'vitest';
import {
  contentRemaining,
  FINALIZER_ESTIMATE_SECONDS,
} from '../../../../operators/controller/namespace/content-remaining.ts';

const CONFIG_MAPS = { group: '', version: 'v1', resource: 'configmaps' };
const held = (...finalizers: string[]) => ({ metadata: { finalizers } });

describe('contentRemaining', () => {
  it.each([
    [
      'nothing left: done, whatever the estimate',
      [],
      30,
      { estimateSeconds: 0, remaining: 0, finalizers: {} },
    ],
    [
      'pods still terminating within their grace: wait the estimate',
      [held(), held()],
      30,
      { estimateSeconds: 30, remaining: 2, finalizers: {} },
    ],
    [
      'objects held by finalizers: wait the finalizer estimate, counted per finalizer',
      [held('a.io/x'), held('a.io/x', 'b.io/y')],
      0,
      { estimateSeconds: FINALIZER_ESTIMATE_SECONDS, remaining: 2, finalizers: { 'a.io/x': 2, 'b.io/y': 1 } },
    ],
  ])('%s', (_name, items, estimate, want) => {
    expect(contentRemaining(CONFIG_MAPS, 'team', items, estimate)).toEqual(want);
  });

  it('objects left with nothing to explain them are a content failure naming the namespace and resource', () => {
    expect(contentRemaining(CONFIG_MAPS, 'team', [held()], 0)).toEqual({
      estimateSeconds: 0,
      remaining: 1,
      finalizers: {},
      error: 'unexpected items still remain in namespace: team for gvr: /v1, Resource=configmaps',
    });
  });
});
