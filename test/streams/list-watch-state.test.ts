// Tables for the Reflector state machine, rewritten from client-go's reflector_test.go and reflector_watchlist_test.go.
import { describe, expect, it } from 'vitest';
import { ApiError, InvalidInputError, KubeRxError, TimeoutError } from '../../operators/errors.ts';
import {
  INITIAL_EVENTS_END_ANNOTATION,
  type KubeObject,
  type ObjectList,
  type WatchEvent,
} from '../../operators/types.ts';
import {
  expiredError,
  internalError,
  tooLargeResourceVersionError,
  tooManyRequestsError,
} from '../../src/testing/api-errors.ts';
import {
  initialReflectorState,
  isConnectionBroken,
  listPageSize,
  malformedReason,
  type ReflectorInput,
  type ReflectorSettings,
  type ReflectorState,
  type ReflectorTransition,
  relistResourceVersion,
  rewatchResourceVersion,
  stepReflector,
} from '../../streams/list-watch-state.ts';

const pod = (name: string, rv: string, extra: Partial<KubeObject> = {}): KubeObject => ({
  kind: 'Pod',
  metadata: { name, namespace: 'ns', resourceVersion: rv },
  ...extra,
});
const list = (rv: string, items: KubeObject[] = [], cont?: string): ObjectList => ({
  metadata: cont ? { resourceVersion: rv, continue: cont } : { resourceVersion: rv },
  items,
});
const endBookmark = (rv: string, value = 'true'): WatchEvent => ({
  type: 'BOOKMARK',
  object: {
    kind: 'Pod',
    metadata: { resourceVersion: rv, annotations: { [INITIAL_EVENTS_END_ANNOTATION]: value } },
  },
});

function machine(settings: Partial<ReflectorSettings> = {}) {
  const state = initialReflectorState({
    watchList: false,
    pageSize: undefined,
    labelSelector: undefined,
    fieldSelector: undefined,
    ...settings,
  });
  const emitted: unknown[] = [];
  const commands: ReflectorTransition['command'][] = [];
  const feed = (input: ReflectorInput) => {
    const t = stepReflector(state, input);
    if (t.emit) emitted.push(t.emit);
    commands.push(t.command);
    return t;
  };
  /** Feeds inputs until the machine asks for a backoff, then says the wait is over. */
  const relistAfter = (input: ReflectorInput) => {
    expect(feed(input).command.type).toBe('backoff');
    return feed({ type: 'backoffDone' });
  };
  const requests = () => commands.filter((c) => c.type === 'list' || c.type === 'watch');
  return { state, emitted, commands, feed, relistAfter, requests };
}

const stateWith = (patch: Partial<ReflectorState>): ReflectorState => ({
  ...initialReflectorState({
    watchList: false,
    pageSize: undefined,
    labelSelector: undefined,
    fieldSelector: undefined,
  }),
  ...patch,
});

/** Connection-level failures as the HTTP client and node raise them. */
const reset = () => Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
const cutMidStream = () =>
  new KubeRxError('KUBE_RX_CONNECTION', 'GET /api/v1/pods?watch=true: the connection closed mid-stream');

describe('relist and rewatch resourceVersion (relistResourceVersion, rewatchResourceVersion)', () => {
  it.each([
    ['first list may be served from the watch cache', '', false, '0', ''],
    ['relist never travels back in time', '10', false, '10', '10'],
    ['after Expired or TooLarge read the latest state', '10', true, '', ''],
  ])('%s', (_name, lastSyncRV, rvUnavailable, relist, rewatch) => {
    const s = stateWith({ lastSyncRV, rvUnavailable });
    expect(relistResourceVersion(s)).toBe(relist);
    expect(rewatchResourceVersion(s)).toBe(rewatch);
  });
});

describe('list page size (client-go pager rules)', () => {
  it.each([
    ['explicit page size wins', 4, false, '10', 4],
    ['a paginated rv=0 list keeps later lists paginated', undefined, true, '10', 500],
    ['no limit when relisting from a known rv (served by the watch cache)', undefined, false, '10', 0],
    ['default limit for rv=0', undefined, false, '0', 500],
    ['default limit for a consistent read', undefined, false, '', 500],
  ])('%s', (_name, pageSize, paginatedResult, rv, expected) => {
    const s = stateWith({ paginatedResult, settings: { ...stateWith({}).settings, pageSize } });
    expect(listPageSize(s, rv)).toBe(expected);
  });
});

describe('TestReflectorListAndWatch', () => {
  it('watch-list disabled: list rv=0 limit 500, then watch from the list rv with bookmarks', () => {
    const m = machine();
    m.feed({ type: 'start' });
    m.feed({ type: 'listPage', page: list('1', [pod('foo', '1')]) });
    for (const [type, name, rv] of [
      ['MODIFIED', 'foo', '2'],
      ['ADDED', 'bar', '3'],
      ['ADDED', 'baz', '4'],
      ['ADDED', 'qux', '5'],
      ['ADDED', 'zoo', '6'],
    ] as const) {
      m.feed({ type: 'watchEvent', event: { type, object: pod(name, rv) } });
    }
    expect(m.requests()).toEqual([
      { type: 'list', options: { resourceVersion: '0', limit: 500 } },
      { type: 'watch', options: { resourceVersion: '1', allowWatchBookmarks: true } },
    ]);
    expect(m.emitted.map((e) => (e as { type: string }).type)).toEqual([
      'Replace',
      'Updated',
      'Added',
      'Added',
      'Added',
      'Added',
    ]);
    expect(m.state.lastSyncRV).toBe('6');
  });

  it('watch-list enabled: one streaming watch from rv "" with NotOlderThan, then a single Replace', () => {
    const m = machine({ watchList: true });
    m.feed({ type: 'start' });
    m.feed({ type: 'watchEvent', event: { type: 'ADDED', object: pod('foo', '1') } });
    m.feed({ type: 'watchEvent', event: endBookmark('1') });
    m.feed({ type: 'watchEvent', event: { type: 'MODIFIED', object: pod('foo', '2') } });
    m.feed({ type: 'watchEvent', event: { type: 'ADDED', object: pod('bar', '3') } });
    expect(m.requests()).toEqual([
      {
        type: 'watch',
        options: {
          resourceVersion: '',
          resourceVersionMatch: 'NotOlderThan',
          sendInitialEvents: true,
          allowWatchBookmarks: true,
        },
      },
    ]);
    expect(m.emitted).toEqual([
      { type: 'Replace', items: [pod('foo', '1')], resourceVersion: '1' },
      { type: 'Updated', object: pod('foo', '2') },
      { type: 'Added', object: pod('bar', '3') },
    ]);
  });
});

describe('TestReflectorWatchHandler and TestReflectorResourceVersionUpdate', () => {
  it('records the rv of the LAST event (not the largest) and advances on bookmarks', () => {
    const m = machine();
    m.feed({ type: 'start' });
    m.feed({ type: 'listPage', page: list('10', [pod('foo', '1'), pod('bar', '2')]) });
    const rvs: string[] = [];
    for (const event of [
      { type: 'DELETED', object: pod('foo', '20') },
      { type: 'MODIFIED', object: pod('bar', '55') },
      { type: 'ADDED', object: pod('baz', '32') },
      { type: 'BOOKMARK', object: { metadata: { resourceVersion: '60' } } },
    ] as WatchEvent[]) {
      m.feed({ type: 'watchEvent', event });
      rvs.push(m.state.lastSyncRV);
    }
    expect(rvs).toEqual(['20', '55', '32', '60']);
    expect(m.emitted.at(-1)).toEqual({ type: 'Bookmark', resourceVersion: '60' });
  });
});

describe('TestReflectorResyncWithResourceVersion / ExpiredExactResourceVersion / FullListIfExpired / FullListIfTooLarge', () => {
  it('a relist asks for the last synced rv, with no limit', () => {
    const m = machine();
    m.feed({ type: 'start' });
    m.feed({ type: 'listPage', page: list('10', [pod('a', '1')]) });
    const t = m.relistAfter({ type: 'watchEnded', error: internalError(), veryShort: false });
    expect(t.command).toEqual({ type: 'list', options: { resourceVersion: '10' } });
  });

  it('an Expired relist at the last rv is retried at once from "" (a consistent read)', () => {
    const m = machine();
    m.feed({ type: 'start' });
    m.feed({ type: 'listPage', page: list('10') });
    m.relistAfter({ type: 'watchEnded', error: internalError(), veryShort: false });
    const retry = m.feed({ type: 'listFailed', error: expiredError() });
    // Same pager as the failed request, so still no limit (reflector.go reuses it).
    expect(retry.command).toEqual({ type: 'list', options: { resourceVersion: '' } });
    expect(m.state.rvUnavailable).toBe(true);
    m.feed({ type: 'listPage', page: list('11', [pod('a', '1'), pod('b', '2')]) });
    expect(m.state.rvUnavailable).toBe(false);
    expect(m.state.lastSyncRV).toBe('11');
    const lists = m.requests().filter((c) => c.type === 'list');
    expect(lists.map((c) => c.options.resourceVersion)).toEqual(['0', '10', '']);
  });

  it('an expired continue token re-lists everything at the original rv without a limit', () => {
    const m = machine({ pageSize: 4 });
    m.feed({ type: 'start' });
    m.feed({ type: 'listPage', page: list('10', [pod('p0', '1')]) });
    m.relistAfter({ type: 'watchEnded', error: internalError(), veryShort: false });
    m.feed({ type: 'listPage', page: list('11', [pod('p0', '1')], 'C1') });
    m.feed({ type: 'listFailed', error: expiredError() });
    m.feed({ type: 'listPage', page: list('11', [pod('p0', '1'), pod('p1', '2')]) });
    const lists = m.requests().filter((c) => c.type === 'list');
    expect(lists.map((c) => c.options)).toEqual([
      { resourceVersion: '0', limit: 4 },
      { resourceVersion: '10', limit: 4 },
      { continue: 'C1', limit: 4 },
      { resourceVersion: '10' },
    ]);
    expect(m.emitted.at(-1)).toEqual({
      type: 'Replace',
      items: [pod('p0', '1'), pod('p1', '2')],
      resourceVersion: '11',
    });
  });

  it('pages are merged into one Replace carrying the first page rv (TestReflectorWatchListPageSize)', () => {
    const m = machine({ pageSize: 4 });
    m.feed({ type: 'start' });
    const pods = Array.from({ length: 10 }, (_, i) => pod(`pod-${i}`, String(i)));
    m.feed({ type: 'listPage', page: list('10', pods.slice(0, 4), 'C1') });
    m.feed({ type: 'listPage', page: list('10', pods.slice(4, 8), 'C2') });
    m.feed({ type: 'listPage', page: list('10', pods.slice(8)) });
    expect(m.emitted).toEqual([{ type: 'Replace', items: pods, resourceVersion: '10' }]);
    expect(m.state.paginatedResult).toBe(true);
  });

  it.each([
    ['cause type ResourceVersionTooLarge', tooLargeResourceVersionError('20', '10')],
    [
      'a cause message only (1.17.0-1.18.5)',
      new ApiError(504, {
        kind: 'Status',
        code: 504,
        reason: 'Timeout',
        message: 'too large resource version',
        details: { causes: [{ message: 'Too large resource version' }] },
      }),
    ],
    [
      'the message only (before 1.17)',
      new ApiError(504, {
        kind: 'Status',
        code: 504,
        reason: 'Timeout',
        message: 'Too large resource version',
      }),
    ],
  ])('"too large resource version" (%s) relists from ""', (_name, error) => {
    const m = machine();
    m.feed({ type: 'start' });
    m.feed({ type: 'listPage', page: list('20') });
    m.relistAfter({ type: 'watchEnded', error: internalError(), veryShort: false });
    expect(m.feed({ type: 'listFailed', error }).command).toEqual({
      type: 'list',
      options: { resourceVersion: '' },
    });
  });

  it('a list that fails again after the "" retry backs off and starts a new cycle', () => {
    const m = machine();
    m.feed({ type: 'start' });
    m.feed({ type: 'listFailed', error: expiredError() });
    expect(m.feed({ type: 'listFailed', error: expiredError() }).command.type).toBe('backoff');
    expect(m.feed({ type: 'backoffDone' }).command).toEqual({
      type: 'list',
      options: { resourceVersion: '', limit: 500 },
    });
  });
});

describe('watch endings (the watch loop of reflector.go)', () => {
  const cases: [string, ReflectorInput, string, Record<string, unknown> | undefined][] = [
    [
      'a clean close re-watches at once from the last rv',
      { type: 'watchEnded', veryShort: false },
      'watch',
      { resourceVersion: '7' },
    ],
    [
      'a very short watch backs off, then relists',
      { type: 'watchEnded', veryShort: true },
      'backoff→list',
      { resourceVersion: '7' },
    ],
    [
      '410 Expired backs off, then relists from the last rv',
      { type: 'watchEnded', error: expiredError(), veryShort: false },
      'backoff→list',
      { resourceVersion: '7' },
    ],
    [
      'an ERROR event with 410 does the same',
      { type: 'watchEvent', event: { type: 'ERROR', object: expiredError().status } },
      'backoff→list',
      { resourceVersion: '7' },
    ],
    [
      '429 backs off, then re-watches without a relist',
      { type: 'watchEnded', error: tooManyRequestsError(1), veryShort: false },
      'backoff→watch',
      { resourceVersion: '7' },
    ],
    [
      'a refused connection backs off, then re-watches',
      {
        type: 'watchEnded',
        error: Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }),
        veryShort: false,
      },
      'backoff→watch',
      { resourceVersion: '7' },
    ],
    [
      'garbled data after a good event resumes at once from the last good rv',
      { type: 'watchEnded', error: new InvalidInputError('{"ty', undefined, 'not JSON'), veryShort: false },
      'watch',
      { resourceVersion: '7' },
    ],
    [
      'an event without metadata after a good event resumes at once from the last good rv',
      { type: 'watchEvent', event: { type: 'MODIFIED', object: {} } },
      'watch',
      { resourceVersion: '7' },
    ],
    [
      'an unknown event type after a good event resumes at once from the last good rv',
      { type: 'watchEvent', event: { type: 'NOPE', object: pod('x', '9') } as unknown as WatchEvent },
      'watch',
      { resourceVersion: '7' },
    ],
    [
      'a 500 backs off, then relists',
      { type: 'watchEnded', error: internalError(), veryShort: false },
      'backoff→list',
      { resourceVersion: '7' },
    ],
    [
      'a connection reset mid-stream re-watches at once from the last rv (streamwatcher: probable EOF)',
      { type: 'watchEnded', error: reset(), veryShort: false },
      'watch',
      { resourceVersion: '7' },
    ],
    [
      'a body cut mid-stream (the client transport) re-watches at once from the last rv',
      { type: 'watchEnded', error: cutMidStream(), veryShort: false },
      'watch',
      { resourceVersion: '7' },
    ],
    [
      'a watch that timed out re-watches at once from the last rv',
      { type: 'watchEnded', error: new TimeoutError('watch v1/pods', 60_000), veryShort: false },
      'watch',
      { resourceVersion: '7' },
    ],
    [
      'a connection that breaks within a second with no events backs off, then relists',
      { type: 'watchEnded', error: reset(), veryShort: true },
      'backoff→list',
      { resourceVersion: '7' },
    ],
    [
      'a silent watch is abandoned and resumed at once',
      { type: 'inactive', ms: 25_000 },
      'watch',
      { resourceVersion: '7' },
    ],
  ];
  it.each(cases)('%s', (_name, input, expected, options) => {
    const m = machine();
    m.feed({ type: 'start' });
    m.feed({ type: 'listPage', page: list('5') });
    m.feed({ type: 'watchEvent', event: { type: 'ADDED', object: pod('a', '7') } });
    const t = m.feed(input);
    if (expected === 'watch') {
      expect(t.command).toEqual({ type: 'watch', options: { ...options, allowWatchBookmarks: true } });
      return;
    }
    expect(t.command.type).toBe('backoff');
    const after = m.feed({ type: 'backoffDone' });
    expect(after.command.type).toBe(expected.split('→')[1]);
    expect((after.command as { options: object }).options).toMatchObject(options!);
    expect(m.state.lastSyncRV).toBe('7');
  });

  it.each([
    ['ECONNRESET', reset(), true],
    ['a cause with EPIPE', new Error('write failed', { cause: { code: 'EPIPE' } }), true],
    ['the transport cut', cutMidStream(), true],
    ['a timeout', new TimeoutError('watch', 1), true],
    [
      'a refused connection (retriable instead)',
      new KubeRxError('KUBE_RX_CONNECTION', 'refused', { cause: { code: 'ECONNREFUSED' } }),
      false,
    ],
    ['a 500', internalError(), false],
    ['garbled data', new InvalidInputError('watch', 'line', 'not JSON'), false],
    ['a plain Error', new Error('boom'), false],
  ])('isConnectionBroken(%s) is %s', (_name, error, expected) => {
    expect(isConnectionBroken(error)).toBe(expected);
  });

  it('malformed events name their problem', () => {
    expect(malformedReason({ type: 'ADDED', object: {} })).toBe('object has no metadata');
    expect(malformedReason({ type: 'ADDED', object: { metadata: { resourceVersion: '1' } } })).toBe(
      'object has no metadata.name',
    );
    expect(malformedReason({ type: 'X', object: {} })).toMatch(/unknown watch event type/);
    expect(malformedReason('line')).toBe('not a watch event object');
    expect(
      malformedReason({ type: 'BOOKMARK', object: { metadata: { resourceVersion: '3' } } }),
    ).toBeUndefined();
    expect(malformedReason({ type: 'BOOKMARK', object: { metadata: {} } })).toBe(
      'bookmark has no metadata.resourceVersion',
    );
    expect(malformedReason({ type: 'ADDED', object: { metadata: { name: 'a', resourceVersion: 3 } } })).toBe(
      'metadata.resourceVersion is not a string',
    );
  });

  it.each(['ADDED', 'MODIFIED', 'DELETED'] as const)(
    'a %s event without a resourceVersion is applied and leaves the last resourceVersion as it was',
    (type) => {
      expect(malformedReason({ type, object: { metadata: { name: 'a' } } })).toBeUndefined();
      const m = machine();
      m.feed({ type: 'start' });
      m.feed({ type: 'listPage', page: list('5', [pod('a', '4')]) });
      m.feed({ type: 'watchEvent', event: { type: 'MODIFIED', object: pod('a', '7') } });
      const bare: KubeObject = { kind: 'Pod', metadata: { name: 'a', namespace: 'ns' } };
      const t = m.feed({ type: 'watchEvent', event: { type, object: bare } });
      const expected = { ADDED: 'Added', MODIFIED: 'Updated', DELETED: 'Deleted' }[type];
      expect(t.emit).toEqual({ type: expected, object: bare });
      expect(t.command.type).toBe('continue');
      expect(m.state.lastSyncRV).toBe('7');
    },
  );
});

describe('TestWatchList (reflector_watchlist_test.go)', () => {
  const initial = {
    type: 'watch',
    options: {
      resourceVersion: '',
      resourceVersionMatch: 'NotOlderThan',
      sendInitialEvents: true,
      allowWatchBookmarks: true,
    },
  };

  it('is not synced until the initial-events-end bookmark arrives', () => {
    const m = machine({ watchList: true });
    m.feed({ type: 'start' });
    m.feed({ type: 'watchEvent', event: { type: 'ADDED', object: pod('p1', '1') } });
    expect(m.emitted).toEqual([]);
    expect(m.state.synced).toBe(false);
    expect(m.requests()).toEqual([initial]);
  });

  it('checks the annotation value: "false" does not end the initial events', () => {
    const m = machine({ watchList: true });
    m.feed({ type: 'start' });
    m.feed({ type: 'watchEvent', event: { type: 'ADDED', object: pod('p1', '1') } });
    m.feed({ type: 'watchEvent', event: endBookmark('2', 'false') });
    expect(m.state.synced).toBe(false);
    expect(m.emitted).toEqual([]);
  });

  it.each([
    ['any error', new Error('dummy error')],
    [
      'Invalid (the server does not support streaming)',
      new ApiError(422, { kind: 'Status', code: 422, reason: 'Invalid' }),
    ],
  ])('falls back to list then watch on %s', (_name, error) => {
    const m = machine({ watchList: true });
    m.feed({ type: 'start' });
    m.feed({ type: 'watchEnded', error, veryShort: false });
    m.feed({ type: 'listPage', page: list('1', [pod('p1', '1')]) });
    m.feed({ type: 'watchEvent', event: { type: 'ADDED', object: pod('p2', '2') } });
    expect(m.requests()).toEqual([
      initial,
      { type: 'list', options: { resourceVersion: '0', limit: 500 } },
      { type: 'watch', options: { resourceVersion: '1', allowWatchBookmarks: true } },
    ]);
    expect(m.emitted).toEqual([
      { type: 'Replace', items: [pod('p1', '1')], resourceVersion: '1' },
      { type: 'Added', object: pod('p2', '2') },
    ]);
  });

  it('propagates updates and deletes during streaming into the single Replace', () => {
    const m = machine({ watchList: true });
    m.feed({ type: 'start' });
    const p1v3 = pod('p1', '3', { spec: { activeDeadlineSeconds: 12 } });
    for (const event of [
      { type: 'ADDED', object: pod('p1', '1') },
      { type: 'ADDED', object: pod('p2', '2') },
      { type: 'MODIFIED', object: p1v3 },
      { type: 'ADDED', object: pod('p3', '4') },
      { type: 'DELETED', object: pod('p3', '5') },
      endBookmark('5'),
    ] as WatchEvent[]) {
      m.feed({ type: 'watchEvent', event });
    }
    expect(m.emitted).toEqual([{ type: 'Replace', items: [p1v3, pod('p2', '2')], resourceVersion: '5' }]);
    expect(m.state).toMatchObject({ synced: true, lastSyncRV: '5' });
  });

  it('retries 429 after a backoff with the same streaming request', () => {
    const m = machine({ watchList: true });
    m.feed({ type: 'start' });
    m.relistAfter({ type: 'watchEnded', error: tooManyRequestsError(1), veryShort: false });
    m.relistAfter({ type: 'watchEnded', error: tooManyRequestsError(1), veryShort: false });
    m.feed({ type: 'watchEvent', event: { type: 'ADDED', object: pod('p1', '1') } });
    m.feed({ type: 'watchEvent', event: endBookmark('2') });
    expect(m.requests()).toEqual([initial, initial, initial]);
    expect(m.emitted).toEqual([{ type: 'Replace', items: [pod('p1', '1')], resourceVersion: '2' }]);
  });

  it('a stream that closes before the bookmark starts a new watch-list request', () => {
    const m = machine({ watchList: true });
    m.feed({ type: 'start' });
    m.feed({ type: 'watchEvent', event: { type: 'ADDED', object: pod('p1', '1') } });
    m.feed({ type: 'watchEnded', veryShort: false });
    m.feed({ type: 'watchEvent', event: { type: 'ADDED', object: pod('p1', '1') } });
    m.feed({ type: 'watchEvent', event: endBookmark('1') });
    expect(m.requests()).toEqual([initial, initial]);
    expect(m.emitted).toEqual([{ type: 'Replace', items: [pod('p1', '1')], resourceVersion: '1' }]);
  });

  it('a stream that closes after the bookmark re-watches from the last rv (no sendInitialEvents)', () => {
    const m = machine({ watchList: true });
    m.feed({ type: 'start' });
    for (const event of [
      { type: 'ADDED', object: pod('p1', '1') },
      { type: 'ADDED', object: pod('p2', '2') },
      endBookmark('2'),
      { type: 'ADDED', object: pod('p3', '3') },
    ] as WatchEvent[]) {
      m.feed({ type: 'watchEvent', event });
    }
    m.feed({ type: 'watchEnded', veryShort: false });
    m.feed({ type: 'watchEvent', event: { type: 'ADDED', object: pod('p4', '4') } });
    expect(m.requests()).toEqual([
      initial,
      { type: 'watch', options: { resourceVersion: '3', allowWatchBookmarks: true } },
    ]);
    expect(m.emitted.map((e) => (e as { type: string }).type)).toEqual(['Replace', 'Added', 'Added']);
  });

  it('a stream whose connection breaks before the bookmark streams again (no fallback to a list)', () => {
    const m = machine({ watchList: true });
    m.feed({ type: 'start' });
    m.feed({ type: 'watchEvent', event: { type: 'ADDED', object: pod('p1', '1') } });
    const t = m.feed({ type: 'watchEnded', error: cutMidStream(), veryShort: false });
    expect(t.command).toEqual(initial);
    expect(t.log).toMatchObject({ level: 'info', fields: { error: expect.stringMatching(/mid-stream/) } });
  });

  it('a stream whose connection breaks at once with no events falls back to a list', () => {
    const m = machine({ watchList: true });
    m.feed({ type: 'start' });
    const t = m.feed({ type: 'watchEnded', error: reset(), veryShort: true });
    expect(t.command).toEqual({ type: 'list', options: { resourceVersion: '0', limit: 500 } });
    expect(t.log?.fields).toMatchObject({ error: 'read ECONNRESET' });
  });

  it('an established watch that expires ends the cycle; the next cycle streams from the last rv', () => {
    const m = machine({ watchList: true });
    m.feed({ type: 'start' });
    m.feed({ type: 'watchEvent', event: { type: 'ADDED', object: pod('p1', '1') } });
    m.feed({ type: 'watchEvent', event: endBookmark('2') });
    m.feed({ type: 'watchEvent', event: { type: 'ADDED', object: pod('p3', '3') } });
    m.feed({ type: 'watchEnded', veryShort: false });
    const t = m.relistAfter({
      type: 'watchEnded',
      error: expiredError('rv already expired'),
      veryShort: false,
    });
    expect(t.command).toEqual({ ...initial, options: { ...initial.options, resourceVersion: '3' } });
  });

  it('an Expired streaming request retries at once from ""', () => {
    const m = machine({ watchList: true });
    m.feed({ type: 'start' });
    m.feed({ type: 'watchEvent', event: endBookmark('4') });
    m.relistAfter({ type: 'watchEnded', error: internalError(), veryShort: false });
    const t = m.feed({ type: 'watchEnded', error: expiredError(), veryShort: false });
    expect(t.command).toEqual(initial);
    expect(m.state.rvUnavailable).toBe(true);
  });

  it('a streaming request that stays silent falls back to a list', () => {
    const m = machine({ watchList: true });
    m.feed({ type: 'start' });
    expect(m.feed({ type: 'inactive', ms: 25_000 }).command).toEqual({
      type: 'list',
      options: { resourceVersion: '0', limit: 500 },
    });
  });
});

describe('TestWatchListResourceVersion', () => {
  it.each([
    ['no events', [], ''],
    ['adds without the bookmark', [{ type: 'ADDED', object: pod('p1', '1') }], ''],
    ['adds then the bookmark', [{ type: 'ADDED', object: pod('p1', '1') }, endBookmark('2')], '2'],
  ] as [string, WatchEvent[], string][])('%s → last synced rv %j', (_name, events, rv) => {
    const m = machine({ watchList: true });
    m.feed({ type: 'start' });
    for (const event of events) m.feed({ type: 'watchEvent', event });
    expect(m.state.lastSyncRV).toBe(rv);
  });
});

describe('selectors', () => {
  it('are passed on every list and watch', () => {
    const m = machine({ labelSelector: 'app=web', fieldSelector: 'spec.nodeName=n1' });
    m.feed({ type: 'start' });
    m.feed({ type: 'listPage', page: list('3', [], 'C') });
    m.feed({ type: 'listPage', page: list('3') });
    for (const c of m.requests()) {
      expect(c.options).toMatchObject({ labelSelector: 'app=web', fieldSelector: 'spec.nodeName=n1' });
    }
    expect(m.requests()).toHaveLength(3);
  });
});

describe('failures after progress (resetBackoff) and garbled data', () => {
  const garbled = new InvalidInputError('watch v1/pods', 'line', 'not JSON');
  const added = (name: string, rv: string): ReflectorInput => ({
    type: 'watchEvent',
    event: { type: 'ADDED', object: pod(name, rv) },
  });
  const bookmark = (rv: string): ReflectorInput => ({
    type: 'watchEvent',
    event: { type: 'BOOKMARK', object: { metadata: { resourceVersion: rv } } },
  });
  const broken = (veryShort = false): ReflectorInput => ({ type: 'watchEnded', error: garbled, veryShort });
  const watching = () => {
    const m = machine();
    m.feed({ type: 'start' });
    m.feed({ type: 'listPage', page: list('5') });
    return m;
  };

  /** Feeds the inputs; for each, what the machine did: `reset+` prefix when it reset the backoff. */
  const trace = (m: ReturnType<typeof machine>, inputs: ReflectorInput[]) =>
    inputs.map((input) => {
      const t = m.feed(input);
      return `${t.resetBackoff ? 'reset+' : ''}${t.command.type}`;
    });

  it.each<[string, ReflectorInput[], string[]]>([
    [
      'garbled data after progress resumes at once; garbage again with no event between backs off',
      [added('a', '6'), broken(), broken(), { type: 'backoffDone' }, broken()],
      ['continue', 'reset+watch', 'backoff', 'watch', 'backoff'],
    ],
    [
      'failures separated by a good event each reset the backoff',
      [
        { type: 'watchEnded', error: internalError(), veryShort: false },
        { type: 'backoffDone' },
        { type: 'listPage', page: list('9') },
        added('a', '10'),
        { type: 'watchEnded', error: internalError(), veryShort: false },
      ],
      ['backoff', 'list', 'watch', 'continue', 'reset+backoff'],
    ],
    [
      'a bookmark is progress too',
      [bookmark('6'), { type: 'watchEnded', error: tooManyRequestsError(), veryShort: false }],
      ['continue', 'reset+backoff'],
    ],
    [
      'a successful list is not progress: a watch failing at once after it is consecutive',
      [
        { type: 'watchEnded', error: internalError(), veryShort: false },
        { type: 'backoffDone' },
        { type: 'listPage', page: list('9') },
        { type: 'watchEnded', error: internalError(), veryShort: false },
      ],
      ['backoff', 'list', 'watch', 'backoff'],
    ],
    [
      'a very short watch does not count its events as progress',
      [added('a', '6'), { type: 'watchEnded', veryShort: true }],
      ['continue', 'backoff'],
    ],
    [
      'a clean close is no failure: progress before it still resets the next failure',
      [
        added('a', '6'),
        { type: 'watchEnded', veryShort: false },
        { type: 'watchEnded', error: expiredError(), veryShort: false },
      ],
      ['continue', 'watch', 'reset+backoff'],
    ],
    [
      'a malformed event after good ones resumes at once',
      [added('a', '6'), { type: 'watchEvent', event: { type: 'MODIFIED', object: {} } as WatchEvent }],
      ['continue', 'reset+watch'],
    ],
  ])('%s', (_name, inputs, expected) => {
    expect(trace(watching(), inputs)).toEqual(expected);
  });

  it('an immediate resume after garbage asks for the last good rv and logs the garbage', () => {
    const m = watching();
    m.feed(added('a', '6'));
    const t = m.feed(broken());
    expect(t.command).toEqual({
      type: 'watch',
      options: { resourceVersion: '6', allowWatchBookmarks: true },
    });
    expect(t.log).toMatchObject({
      level: 'error',
      fields: { rv: '6', error: expect.stringMatching(/not JSON/) },
    });
  });

  it('streamed initial events are progress for a failure after them', () => {
    const m = machine({ watchList: true });
    m.feed({ type: 'start' });
    const failure = { type: 'watchEnded', error: tooManyRequestsError(), veryShort: false } as const;
    expect(trace(m, [added('a', '1'), failure, { type: 'backoffDone' }, failure])).toEqual([
      'continue',
      'reset+backoff',
      'watch',
      'backoff',
    ]);
  });
});

describe('expected kind (reflector.go expectedType / expectedGVK)', () => {
  const kinded = (kind: string, apiVersion = 'v1'): KubeObject => ({
    kind,
    apiVersion,
    metadata: { name: 'x', namespace: 'ns', resourceVersion: '9' },
  });
  it.each<[string, KubeObject, boolean]>([
    ['the expected kind is applied', kinded('Pod'), true],
    ['another kind is dropped', kinded('ConfigMap'), false],
    ['the expected kind at another apiVersion is dropped', kinded('Pod', 'v2'), false],
    [
      'an object that names no kind is applied',
      { metadata: { name: 'x', namespace: 'ns', resourceVersion: '9' } },
      true,
    ],
  ])('%s, while watching and while streaming the initial list', (_case, obj, applied) => {
    const m = machine({ expectedKind: { kind: 'Pod', apiVersion: 'v1' } });
    m.feed({ type: 'start' });
    m.feed({ type: 'listPage', page: list('5') });
    const t = m.feed({ type: 'watchEvent', event: { type: 'ADDED', object: obj } });
    expect(t.command.type).toBe('continue');
    if (applied) {
      expect(t.emit).toEqual({ type: 'Added', object: obj });
      expect(m.state.lastSyncRV).toBe('9');
    } else {
      expect(t.emit).toBeUndefined();
      expect(t.log?.msg).toBe('unexpected watch event object kind; dropping it');
      expect(t.log?.fields).toMatchObject({ expectedKind: 'Pod', actualKind: obj.kind, key: 'ns/x' });
      expect(m.state.lastSyncRV).toBe('5');
    }

    const w = machine({ watchList: true, expectedKind: { kind: 'Pod', apiVersion: 'v1' } });
    w.feed({ type: 'start' });
    w.feed({ type: 'watchEvent', event: { type: 'ADDED', object: obj } });
    const end = w.feed({ type: 'watchEvent', event: endBookmark('10') });
    expect((end.emit as unknown as { items: KubeObject[] }).items).toEqual(applied ? [obj] : []);
  });
});
