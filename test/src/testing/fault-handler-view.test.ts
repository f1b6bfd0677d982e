// HandlerView tests: each broken handler promise is recorded, a faithful sequence records none.
import { describe, expect, it } from 'vitest';
import { HandlerView } from '../../../src/testing/fault-handler-view.ts';

const cm = (name: string, rv: number) => ({
  metadata: { namespace: 'ns', name, resourceVersion: String(rv) },
});

describe('HandlerView', () => {
  it('follows a faithful sequence without violations', () => {
    const view = new HandlerView();
    view.onAdd(cm('a', 1));
    view.onAdd(cm('b', 2));
    view.onUpdate(cm('a', 3));
    view.onDelete(cm('b', 4));
    view.onAdd(cm('b', 5));
    expect(view.violations).toEqual([]);
    expect([...view.snapshot()]).toEqual([
      ['ns/a', '3'],
      ['ns/b', '5'],
    ]);
    expect(view.notifications).toEqual({ add: 3, update: 1, delete: 1 });
  });

  it('accepts a delete carrying the last known (stale) state, as after a relist', () => {
    const view = new HandlerView();
    view.onAdd(cm('a', 7));
    view.onDelete(cm('a', 7));
    expect(view.violations).toEqual([]);
  });

  it.each([
    [
      'a duplicate add',
      [
        ['add', 'a', 1],
        ['add', 'a', 2],
      ],
      /duplicate add: ns\/a/,
    ],
    ['an update of an unknown key', [['update', 'a', 1]], /update of an unknown key: ns\/a/],
    ['a delete of an unknown key', [['delete', 'a', 1]], /delete of an unknown key: ns\/a/],
    [
      'an update going back',
      [
        ['add', 'a', 5],
        ['update', 'a', 4],
      ],
      /backwards: update ns\/a at 4 after 5/,
    ],
    [
      'a re-add older than the delete',
      [
        ['add', 'a', 5],
        ['delete', 'a', 6],
        ['add', 'a', 3],
      ],
      /backwards: add ns\/a at 3 after 6/,
    ],
  ] as const)('records %s', (_name, steps, pattern) => {
    const view = new HandlerView();
    for (const [kind, name, rv] of steps) {
      if (kind === 'add') view.onAdd(cm(name, rv));
      else if (kind === 'update') view.onUpdate(cm(name, rv));
      else view.onDelete(cm(name, rv));
    }
    expect(view.violations).toHaveLength(1);
    expect(view.violations[0]).toMatch(pattern);
  });

  it('does not compare opaque resourceVersions', () => {
    const view = new HandlerView();
    view.onAdd({ metadata: { name: 'a', resourceVersion: 'b2' } });
    view.onUpdate({ metadata: { name: 'a', resourceVersion: 'a1' } });
    expect(view.violations).toEqual([]);
  });
});
