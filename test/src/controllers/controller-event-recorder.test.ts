// controllerEventRecorder: client-go's correlator cases (events_cache_test.go: aggregation after 10 similar events, dedup as count patches, the spam filter's burst of 25 and refill) in our own words, and Events on their own client.
import { firstValueFrom, of, throwError } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../operators/errors.ts';
import { silentLogger } from '../../../operators/logger.ts';
import type { KubeObject } from '../../../operators/types.ts';
import {
  controllerEventRecorder,
  withEventsClient,
} from '../../../src/controllers/controller-event-recorder.ts';
import type { ApiClient, ResourceDescriptor } from '../../../streams/api-client.ts';
import { EVENTS, PODS } from '../../../streams/resources.ts';

type Call = { verb: string; resource: string; name?: string; body: Record<string, unknown> };

function fakeClient(calls: Call[], options: { patchMissing?: boolean } = {}): ApiClient {
  return {
    create: (r: ResourceDescriptor, o: KubeObject) => {
      calls.push({ verb: 'create', resource: r.plural, body: o as Record<string, unknown> });
      return of(o);
    },
    patch: (r: ResourceDescriptor, name: string, p: unknown) => {
      calls.push({ verb: 'patch', resource: r.plural, name, body: p as Record<string, unknown> });
      if (options.patchMissing)
        return throwError(() => new ApiError(404, { reason: 'NotFound', message: 'gone' }));
      return of({} as KubeObject);
    },
    get: (r: ResourceDescriptor, name: string) => {
      calls.push({ verb: 'get', resource: r.plural, name, body: {} });
      return of({ metadata: { name } } as KubeObject);
    },
  } as unknown as ApiClient;
}

const job = (name = 'pi'): KubeObject => ({
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: { name, namespace: 'default', uid: `uid-${name}` },
});
const flush = () => new Promise((r) => setImmediate(r));

describe('controllerEventRecorder', () => {
  it('writes an Event about the object, with the controller as source', async () => {
    const calls: Call[] = [];
    const record = controllerEventRecorder(
      fakeClient(calls),
      'job-controller',
      silentLogger,
      () => 1_000_000,
    );
    record(job(), 'Normal', 'SuccessfulCreate', 'Created pod: pi-abc');
    await flush();
    expect(calls).toHaveLength(1);
    expect(calls[0]!.body).toMatchObject({
      involvedObject: {
        kind: 'Job',
        name: 'pi',
        namespace: 'default',
        uid: 'uid-pi',
        apiVersion: 'batch/v1',
      },
      reason: 'SuccessfulCreate',
      message: 'Created pod: pi-abc',
      type: 'Normal',
      count: 1,
      source: { component: 'job-controller' },
      firstTimestamp: '1970-01-01T00:16:40Z',
    });
  });

  it('the same Event again patches the count of the one written', async () => {
    const calls: Call[] = [];
    let now = 0;
    const record = controllerEventRecorder(fakeClient(calls), 'c', silentLogger, () => now);
    record(job(), 'Warning', 'FailedCreate', 'Error creating: quota');
    await flush();
    now = 5_000;
    record(job(), 'Warning', 'FailedCreate', 'Error creating: quota');
    await flush();
    expect(calls.map((c) => c.verb)).toEqual(['create', 'patch']);
    expect(calls[1]!.name).toBe((calls[0]!.body.metadata as { name: string }).name);
    expect(calls[1]!.body).toEqual({
      count: 2,
      lastTimestamp: '1970-01-01T00:00:05Z',
      message: 'Error creating: quota',
    });
  });

  it('a patch of an Event that is gone writes it anew', async () => {
    const calls: Call[] = [];
    const record = controllerEventRecorder(
      fakeClient(calls, { patchMissing: true }),
      'c',
      silentLogger,
      () => 0,
    );
    record(job(), 'Normal', 'Completed', 'Job completed');
    await flush();
    record(job(), 'Normal', 'Completed', 'Job completed');
    await flush();
    await flush();
    expect(calls.map((c) => c.verb)).toEqual(['create', 'patch', 'create']);
    expect(calls[2]!.body).toMatchObject({ count: 2 });
  });

  it('after 10 messages of one reason, the others are combined into one Event whose count grows', async () => {
    const calls: Call[] = [];
    const record = controllerEventRecorder(fakeClient(calls), 'c', silentLogger, () => 0);
    for (let i = 0; i < 14; i++) record(job(), 'Normal', 'SuccessfulCreate', `Created pod: pi-${i}`);
    await flush();
    expect(calls.map((c) => c.verb)).toEqual([...Array(11).fill('create'), 'patch', 'patch', 'patch']);
    expect(calls[10]!.body).toMatchObject({
      message: '(combined from similar events): Created pod: pi-10',
      count: 1,
    });
    expect(calls[13]!.body).toEqual({
      count: 4,
      lastTimestamp: '1970-01-01T00:00:00Z',
      message: '(combined from similar events): Created pod: pi-13',
    });
  });

  it('similar messages more than 10 minutes apart are not combined', async () => {
    const calls: Call[] = [];
    let now = 0;
    const record = controllerEventRecorder(fakeClient(calls), 'c', silentLogger, () => now);
    for (let i = 0; i < 10; i++) record(job(), 'Normal', 'SuccessfulCreate', `Created pod: pi-${i}`);
    now = 601_000;
    record(job(), 'Normal', 'SuccessfulCreate', 'Created pod: pi-10');
    await flush();
    expect(calls.at(-1)!.body).toMatchObject({ message: 'Created pod: pi-10' });
  });

  it.each([
    { case: 'a burst of 25 per object passes, the 26th is dropped', at: 0, want: 25 },
    { case: 'one more token after 5 minutes', at: 300_000, want: 26 },
  ])('spam filter: $case', async ({ at, want }) => {
    const calls: Call[] = [];
    let now = 0;
    const record = controllerEventRecorder(fakeClient(calls), 'c', silentLogger, () => now);
    // distinct reasons, so neither aggregation nor dedup folds them
    for (let i = 0; i < 30; i++) record(job(), 'Normal', `Reason${i}`, 'm');
    now = at;
    record(job(), 'Normal', 'Late', 'm');
    record(job(), 'Normal', 'Later', 'm');
    await flush();
    expect(calls).toHaveLength(want);
  });

  it('spam filter: each object and each type has its own bucket', async () => {
    const calls: Call[] = [];
    const record = controllerEventRecorder(fakeClient(calls), 'c', silentLogger, () => 0);
    for (let i = 0; i < 30; i++) {
      record(job('a'), 'Normal', `R${i}`, 'm');
      record(job('b'), 'Normal', `R${i}`, 'm');
      record(job('a'), 'Warning', `R${i}`, 'm');
    }
    await flush();
    expect(calls).toHaveLength(75);
  });

  it('1,000 pods created for one Job cost a few dozen Event writes, not 1,000', async () => {
    const calls: Call[] = [];
    const record = controllerEventRecorder(fakeClient(calls), 'job-controller', silentLogger, () => 0);
    for (let i = 0; i < 1000; i++) record(job(), 'Normal', 'SuccessfulCreate', `Created pod: pi-${i}`);
    await flush();
    expect(calls).toHaveLength(25);
  });
});

describe('withEventsClient', () => {
  it('sends a recorder’s Events through the Events client and every other call through the controllers’ client', async () => {
    const main: Call[] = [];
    const events: Call[] = [];
    const client = withEventsClient(fakeClient(main), fakeClient(events));
    controllerEventRecorder(client, 'c', silentLogger, () => 0)(job(), 'Normal', 'Completed', 'done');
    await firstValueFrom(client.create(PODS, { metadata: { name: 'p' } }));
    await firstValueFrom(client.get(PODS, 'p'));
    await flush();
    expect(events.map((c) => [c.verb, c.resource])).toEqual([['create', 'events']]);
    expect(main.map((c) => [c.verb, c.resource])).toEqual([
      ['create', 'pods'],
      ['get', 'pods'],
    ]);
  });

  it('a recorder on a plain client writes through it', async () => {
    const main: Call[] = [];
    controllerEventRecorder(fakeClient(main), 'c', silentLogger, () => 0)(
      job(),
      'Normal',
      'Completed',
      'done',
    );
    await flush();
    expect(main.map((c) => c.resource)).toEqual([EVENTS.plural]);
  });

  it('keeps the optional calls of the client it wraps (discovery, deletecollection), and has none the client lacks', async () => {
    const lists = { lists: [{ groupVersion: 'v1', resources: [] }], failed: [] };
    const full = {
      ...fakeClient([]),
      serverPreferredResources: () => of(lists),
      deleteCollection: (r: ResourceDescriptor) => of({ kind: 'Status', message: r.plural }),
    } as unknown as ApiClient;
    const routed = withEventsClient(full, fakeClient([]));
    expect(await firstValueFrom(routed.serverPreferredResources!())).toBe(lists);
    expect(await firstValueFrom(routed.deleteCollection!(PODS))).toMatchObject({ message: 'pods' });
    const bare = withEventsClient(fakeClient([]), fakeClient([]));
    expect(bare.serverPreferredResources).toBeUndefined();
    expect(bare.deleteCollection).toBeUndefined();
  });
});
