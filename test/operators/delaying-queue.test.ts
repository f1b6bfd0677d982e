// Tests the delaying queue: time order, earliest-wins dedup, one timer at a time, shutdown.
import { describe, expect, it } from 'vitest';
import { DelayingQueue } from '../../operators/delaying-queue.ts';
import { VirtualClock } from '../../src/testing/virtual-clock.ts';

function setup() {
  const clock = new VirtualClock();
  const scheduler = clock.scheduler;
  const released: [string, number][] = [];
  const queue = new DelayingQueue<string>({
    scheduler,
    ready: (item) => released.push([item, scheduler.now()]),
  });
  const advance = (ms: number) => clock.advance(ms);
  return { scheduler, released, queue, advance };
}

describe('DelayingQueue', () => {
  it.each<[string, [string, number][], [string, number][]]>([
    ['one item at its time', [['a', 10]], [['a', 10]]],
    [
      'time order, not arrival order',
      [
        ['a', 30],
        ['b', 10],
        ['c', 20],
      ],
      [
        ['b', 10],
        ['c', 20],
        ['a', 30],
      ],
    ],
    [
      'a later request for a waiting item is dropped',
      [
        ['a', 10],
        ['a', 50],
      ],
      [['a', 10]],
    ],
    [
      'an earlier request moves the item forward',
      [
        ['a', 50],
        ['b', 20],
        ['a', 10],
      ],
      [
        ['a', 10],
        ['b', 20],
      ],
    ],
    [
      'same time: arrival order',
      [
        ['x', 5],
        ['y', 5],
        ['z', 5],
      ],
      [
        ['x', 5],
        ['y', 5],
        ['z', 5],
      ],
    ],
    ['delay ≤ 0 releases at once', [['now', 0]], [['now', 0]]],
  ])('%s', (_name, adds, expected) => {
    const { released, queue, advance } = setup();
    for (const [item, delay] of adds) queue.addAfter(item, delay);
    advance(100);
    expect(released).toEqual(expected);
    expect(queue.size).toBe(0);
  });

  it('keeps one timer, for the earliest entry', () => {
    const { scheduler, queue } = setup();
    queue.addAfter('a', 50);
    queue.addAfter('b', 80);
    expect(scheduler.actions).toHaveLength(1);
    queue.addAfter('c', 10);
    expect(scheduler.actions).toHaveLength(1);
    expect(scheduler.actions[0]!.delay).toBe(10);
    expect(queue.readyAt('b')).toBe(80);
    expect(queue.readyAt('nope')).toBeUndefined();
  });

  it('an item released may be added again, and waits anew', () => {
    const { released, queue, advance } = setup();
    queue.addAfter('a', 10);
    advance(10);
    queue.addAfter('a', 10);
    advance(10);
    expect(released).toEqual([
      ['a', 10],
      ['a', 20],
    ]);
  });

  it('shutdown drops waiting items, cancels the timer and ignores later adds', () => {
    const { scheduler, released, queue, advance } = setup();
    queue.addAfter('a', 10);
    queue.shutDown();
    expect(scheduler.actions).toHaveLength(0);
    queue.addAfter('b', 0);
    queue.addAfter('c', 5);
    advance(100);
    expect(released).toEqual([]);
    expect(queue.size).toBe(0);
  });

  it('a ready callback that shuts the queue down stops the release loop', () => {
    const clock = new VirtualClock();
    const scheduler = clock.scheduler;
    const released: string[] = [];
    const queue: DelayingQueue<string> = new DelayingQueue<string>({
      scheduler,
      ready: (item) => {
        released.push(item);
        queue.shutDown();
      },
    });
    queue.addAfter('a', 5);
    queue.addAfter('b', 5);
    scheduler.flush();
    expect(released).toEqual(['a']);
  });
});
