// Tests of the learned stall window: flow gaps, bookmark cadence, forgetting, floor and ceiling, list pages, response heads.
import { describe, expect, it } from 'vitest';
import { FLOW_SAMPLES, HEAD_SAMPLES, MIN_FLOW_SAMPLES, stallWindow } from '../../streams/stall-window.ts';

const make = (floorMs = 1000, ceilingMs = 25_000) => stallWindow({ floorMs, ceilingMs });

/** Feeds arrivals every `gap` ms from `from`, `count` of them; returns the time of the last. */
function flow(w: ReturnType<typeof make>, from: number, gap: number, count: number, bookmark = false) {
  let at = from;
  for (let i = 0; i < count; i++) {
    at += gap;
    w.arrived(at, bookmark);
  }
  return at;
}

describe('stallWindow: the watch window', () => {
  it('is the ceiling until something was learned', () => {
    const w = make();
    w.watchStarted(0);
    expect(w.window()).toBe(25_000);
    flow(w, 0, 10, MIN_FLOW_SAMPLES); // MIN_FLOW_SAMPLES arrivals are one gap short
    expect(w.window()).toBe(25_000);
    w.arrived(MIN_FLOW_SAMPLES * 10 + 10, false);
    expect(w.window()).toBe(1000);
  });

  it('the wait for a watch’s first arrival is not a gap: a head 4 s late, then 10 ms gaps, gives the floor', () => {
    const w = make();
    w.watchStarted(0);
    flow(w, 3990, 10, MIN_FLOW_SAMPLES + 1);
    expect(w.window()).toBe(1000);
    w.watchStarted(5000); // the next watch of a flow cut mid-way: its first wait does not count either
    w.arrived(9000, false);
    expect(w.window()).toBe(1000);
  });

  it.each([
    ['a busy stream (10 ms gaps): the floor', 10, 1000],
    ['300 events/s: the floor', 3, 1000],
    ['an event every 700 ms: twice the gap', 700, 1400],
    ['an event every 3 s: twice the gap', 3000, 6000],
    ['an event every 20 s: the ceiling', 20_000, 25_000],
  ])('while events flow: %s', (_name, gap, expected) => {
    const w = make();
    w.watchStarted(0);
    flow(w, 0, gap, MIN_FLOW_SAMPLES + 1); // the first arrival ends the wait for the head, not a gap
    expect(w.window()).toBe(expected);
  });

  it('takes the longest of the recent gaps, and forgets it after FLOW_SAMPLES more', () => {
    const w = make();
    w.watchStarted(0);
    let at = flow(w, 0, 10, 8);
    at += 2000;
    w.arrived(at, false); // a stall that resumed
    at = flow(w, at, 10, 4);
    expect(w.window()).toBe(4000);
    flow(w, at, 10, FLOW_SAMPLES);
    expect(w.window()).toBe(1000);
  });

  it.each([
    ['every 1 s', 1000, 2000],
    ['every 10 s', 10_000, 20_000],
    ['every 60 s (kube-apiserver): the ceiling', 60_000, 25_000],
  ])('on a quiet watch, twice the bookmark interval: %s', (_name, every, expected) => {
    const w = make();
    w.watchStarted(0);
    w.arrived(every, true); // the first bookmark, `every` after the watch began
    expect(w.window()).toBe(expected);
    flow(w, every, every, 5, true);
    expect(w.window()).toBe(expected);
  });

  it('after a stall the flow is forgotten and the bookmark cadence is kept', () => {
    const w = make();
    w.watchStarted(0);
    w.arrived(10_000, true);
    flow(w, 10_000, 10, 50);
    expect(w.window()).toBe(1000);
    w.stalled();
    w.watchStarted(12_000);
    expect(w.window()).toBe(20_000);
  });

  it('after a stall with no bookmark ever seen, probation: twice the abandoned window, doubling per stall up to the ceiling', () => {
    const w = make();
    w.watchStarted(0);
    flow(w, 0, 10, 50);
    expect(w.window()).toBe(1000);
    w.stalled();
    // a watch that hangs from its first byte is abandoned after 2 s, not the 25 s ceiling
    expect(w.window()).toBe(2000);
    const windows: number[] = [];
    for (let i = 0; i < 6; i++) {
      w.watchStarted(0);
      w.stalled();
      windows.push(w.window());
    }
    // a quiet watch on a server without bookmarks costs a bounded number of extra watches
    expect(windows).toEqual([4000, 8000, 16_000, 25_000, 25_000, 25_000]);
  });

  it('probation ends when the bookmark cadence is learned', () => {
    const w = make();
    w.watchStarted(0);
    flow(w, 0, 10, 50);
    w.stalled();
    w.watchStarted(1000);
    w.arrived(2000, true);
    w.arrived(3000, true);
    expect(w.window()).toBe(2000);
    w.watchStarted(10_000);
    w.arrived(20_000, true);
    expect(w.window()).toBe(20_000);
  });

  it('the pace of the initial events is forgotten when they end', () => {
    const w = make();
    w.watchStarted(0);
    flow(w, 0, 1, 500);
    expect(w.window()).toBe(1000);
    w.initialEventsEnded();
    expect(w.window()).toBe(25_000);
  });

  it('keeps the flow across watches that end for other reasons (a cut mid-flow)', () => {
    const w = make();
    w.watchStarted(0);
    flow(w, 0, 10, 20);
    w.watchStarted(300);
    expect(w.window()).toBe(1000);
  });

  it('a floor at or above the ceiling fixes the window at the ceiling', () => {
    const w = make(5000, 5000);
    w.watchStarted(0);
    flow(w, 0, 10, 20);
    expect(w.window()).toBe(5000);
    expect(make(9000, 2000).window()).toBe(2000);
  });
});

describe('stallWindow: list pages', () => {
  it('a page may take the list ceiling until a page was answered', () => {
    expect(make().pageWindow(60_000, 500)).toBe(60_000);
  });

  it('then four times the longest recent page, scaled by the expected size, within [floor, ceiling]', () => {
    const w = make();
    w.pageAnswered(50, 100); // 0.5 ms per object
    expect(w.pageWindow(60_000, 100)).toBe(1000); // 4 × 50 ms is under the floor
    expect(w.pageWindow(60_000, 1000)).toBe(2000); // 4 × 1000 × 0.5 ms
    expect(w.pageWindow(60_000, 1_000_000)).toBe(60_000);
    w.pageAnswered(700, 100);
    expect(w.pageWindow(60_000, 100)).toBe(2800);
  });

  it('a page abandoned at its window makes the next one four times as long', () => {
    const w = make();
    w.pageAnswered(10, 1);
    const first = w.pageWindow(60_000, 1);
    expect(first).toBe(1000);
    w.pageTimedOut(first);
    expect(w.pageWindow(60_000, 1)).toBe(4000);
    w.pageTimedOut(4000);
    expect(w.pageWindow(60_000, 1)).toBe(16_000);
  });
});

describe('stallWindow: the response-head hedge bound', () => {
  it.each([
    ['before any answer: twice the floor', 1000, 25_000, [], 2000],
    ['before any answer, a 5 s floor: 10 s', 5000, 25_000, [], 10_000],
    ['before any answer, under a low ceiling: the ceiling', 1000, 1500, [], 1500],
    ['answers in 10 ms: the floor', 1000, 25_000, [10, 12, 8], 1000],
    ['an answer in 300 ms: four times it', 1000, 25_000, [300], 1200],
    ['the slowest recent answer counts', 1000, 25_000, [20, 700, 30], 2800],
    ['an answer in 10 s: the ceiling', 1000, 25_000, [10_000], 25_000],
  ])('%s', (_name, floor, ceiling, answers, expected) => {
    const w = make(floor, ceiling);
    for (const ms of answers) w.headAnswered(ms);
    expect(w.headWindow()).toBe(expected);
  });

  it(`only the last ${HEAD_SAMPLES} answers count`, () => {
    const w = make();
    w.headAnswered(2000);
    expect(w.headWindow()).toBe(8000);
    for (let i = 0; i < HEAD_SAMPLES - 1; i++) w.headAnswered(10);
    expect(w.headWindow()).toBe(8000);
    w.headAnswered(10);
    expect(w.headWindow()).toBe(1000);
  });

  it('is apart from the watch window and the list pages: a stall or a slow page does not move it', () => {
    const w = make();
    w.headAnswered(100);
    w.watchStarted(0);
    flow(w, 0, 10, MIN_FLOW_SAMPLES);
    w.stalled();
    w.pageTimedOut(60_000);
    expect(w.headWindow()).toBe(1000);
  });
});

describe('stallWindow: forgetting', () => {
  it('after the flow is forgotten only the newer gaps count', () => {
    const w = make();
    w.watchStarted(0);
    flow(w, 0, 10, 7);
    w.stalled();
    w.watchStarted(2000);
    flow(w, 2000, 5000, MIN_FLOW_SAMPLES + 1);
    expect(w.window()).toBe(10_000);
  });
});
