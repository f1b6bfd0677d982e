// Test helper: in-memory shared informers (one Subject per resource) on a VirtualClock, as a controller's InformerFactory, for the disruption and resourcequota controller tests.
import { Subject, type Subscription } from 'rxjs';
import type { KubeObject, ReflectorEvent } from '../../../../operators/types.ts';
import type { InformerFactory } from '../../../../src/informers/informer-factory.ts';
import { sharedInformer } from '../../../../src/informers/shared-informer.ts';
import { VirtualClock } from '../../../../src/testing/virtual-clock.ts';
import type { ResourceDescriptor } from '../../../../streams/api-client.ts';

/** The informers, their factory, and the levers a test pulls. */
export interface InMemoryInformers {
  clock: VirtualClock;
  factory: InformerFactory;
  /** Delivers one event to a resource's informer. */
  emit(plural: string, event: ReflectorEvent<KubeObject>): void;
  /** Starts every informer with its initial list (absent resources start empty). */
  start(items: Readonly<Record<string, readonly KubeObject[]>>): void;
  /** Lets promises settle, advances virtual time by `ms`, and lets them settle again. */
  flush(ms?: number): Promise<void>;
  stop(): void;
}

/**
 * In-memory informers for `plurals`, started by {@link InMemoryInformers.start}.
 * @param plurals the resources' plural names, as `forResource` is asked for them
 */
export function inMemoryInformers(plurals: readonly string[]): InMemoryInformers {
  const clock = new VirtualClock();
  const sources = new Map(plurals.map((p) => [p, new Subject<ReflectorEvent<KubeObject>>()]));
  const informers = new Map(
    [...sources].map(([p, source]) => [
      p,
      sharedInformer<KubeObject>({ source, scheduler: clock.scheduler }),
    ]),
  );
  const factory = {
    forResource: (r: ResourceDescriptor) => informers.get(r.plural),
  } as unknown as InformerFactory;
  let holds: Subscription[] = [];
  const settle = async () => {
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
  };
  return {
    clock,
    factory,
    emit: (plural, event) => sources.get(plural)!.next(event),
    start: (items) => {
      holds = [...informers.values()].map((i) => i.start());
      for (const [p, source] of sources)
        source.next({ type: 'Replace', items: [...(items[p] ?? [])], resourceVersion: '1' });
    },
    flush: async (ms = 10) => {
      await settle();
      clock.advance(ms);
      await settle();
    },
    stop: () => {
      for (const h of holds) h.unsubscribe();
    },
  };
}
