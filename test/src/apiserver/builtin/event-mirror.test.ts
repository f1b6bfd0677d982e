// core/v1 and events.k8s.io/v1 Events are one set of objects, their field names converted as upstream does.
import { describe, expect, it } from 'vitest';
import { toCoreEvent, toEventsV1 } from '../../../../src/apiserver/builtin/event-mirror.ts';
import { registryFixture } from '../admission/registry-fixture.ts';

const core = {
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name: 'web.1', namespace: 'default' },
  involvedObject: { kind: 'Pod', name: 'web', namespace: 'default' },
  reason: 'Scheduled',
  message: 'Successfully assigned default/web to n1',
  type: 'Normal',
  source: { component: 'default-scheduler' },
  firstTimestamp: '2026-01-01T00:00:00Z',
  lastTimestamp: '2026-01-01T00:00:05Z',
  count: 2,
  reportingComponent: 'default-scheduler',
  reportingInstance: 'default-scheduler-n1',
  action: 'Binding',
  series: { count: 2, lastObservedTime: '2026-01-01T00:00:05.000000Z' },
};

const v1 = {
  kind: 'Event',
  apiVersion: 'events.k8s.io/v1',
  metadata: { name: 'web.1', namespace: 'default' },
  reason: 'Scheduled',
  type: 'Normal',
  action: 'Binding',
  reportingInstance: 'default-scheduler-n1',
  series: { count: 2, lastObservedTime: '2026-01-01T00:00:05.000000Z' },
  note: 'Successfully assigned default/web to n1',
  regarding: { kind: 'Pod', name: 'web', namespace: 'default' },
  reportingController: 'default-scheduler',
  deprecatedSource: { component: 'default-scheduler' },
  deprecatedFirstTimestamp: '2026-01-01T00:00:00Z',
  deprecatedLastTimestamp: '2026-01-01T00:00:05Z',
  deprecatedCount: 2,
};

describe('events in two versions', () => {
  it('converts core/v1 to events.k8s.io/v1 and back', () => {
    expect(toEventsV1(core as never)).toEqual(v1);
    expect(toCoreEvent(v1 as never)).toEqual({ ...core });
  });

  it('shows an event created through either version through the other, and deletes it from both', async () => {
    const { create, get, remove } = registryFixture();
    const made = create('events', 'default', core);
    await Promise.resolve();
    const seen = get('events.k8s.io/events', 'default', 'web.1') as unknown as Record<string, unknown>;
    expect(seen.note).toBe(core.message);
    expect((seen.metadata as { uid: string }).uid).toBe(made.metadata?.uid);
    create('events.k8s.io/events', 'default', { ...v1, metadata: { name: 'v1.only' } });
    await Promise.resolve();
    expect((get('events', 'default', 'v1.only') as unknown as { message: string }).message).toBe(v1.note);
    remove('events', 'default', 'web.1');
    await Promise.resolve();
    expect(() => get('events.k8s.io/events', 'default', 'web.1')).toThrow('not found');
  });

  it('drops a mirror queued when the registry stops (its storage is about to close)', async () => {
    const { registry, create, get } = registryFixture();
    create('events', 'default', core);
    registry.stop(); // before the mirror's microtask runs
    await Promise.resolve();
    expect(() => get('events.k8s.io/events', 'default', 'web.1')).toThrow('not found');
    create('events', 'default', { ...core, metadata: { name: 'later', namespace: 'default' } });
    await Promise.resolve();
    expect(() => get('events.k8s.io/events', 'default', 'later')).toThrow('not found');
  });
});
