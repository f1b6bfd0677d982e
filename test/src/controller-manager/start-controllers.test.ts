// startControllers: the start-up order, the jittered pauses in virtual time, skip reasons, informers started after every init, failures and teardown.
import { NEVER, Observable, throwError } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../../operators/logger.ts';
import { noopWorkQueueMetrics } from '../../../operators/work-queue-metrics.ts';
import type {
  ControllerContext,
  ControllerDescriptor,
} from '../../../src/controller-manager/controller-context.ts';
import {
  CONTROLLER_FEATURE_GATES,
  DEFAULT_TERMINATED_POD_GC_THRESHOLD,
} from '../../../src/controller-manager/controller-descriptors.ts';
import {
  type ControllerManagerEvent,
  startControllers,
} from '../../../src/controller-manager/start-controllers.ts';
import { informerFactory } from '../../../src/informers/informer-factory.ts';
import { FakeApiServer } from '../../../src/testing/fake-api-server.ts';
import { VirtualClock } from '../../../src/testing/virtual-clock.ts';
import type { ApiClient, ResourceDescriptor } from '../../../streams/api-client.ts';
import { NODES } from '../../../streams/resources.ts';

function setup(featureGates: Record<string, boolean> = CONTROLLER_FEATURE_GATES) {
  const clock = new VirtualClock();
  const nodes = new FakeApiServer({ scheduler: clock.scheduler });
  nodes.upsert({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } });
  nodes.upsert({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n2' } });
  const client = {
    list: (_r: ResourceDescriptor, o = {}) => nodes.list(o),
    watch: (_r: ResourceDescriptor, o = {}) => nodes.watch(o),
  } as unknown as ApiClient;
  const factory = informerFactory({ client, scheduler: clock.scheduler, listWatch: { watchList: false } });
  const context: ControllerContext = {
    client,
    informerFactory: factory,
    options: { concurrency: {}, terminatedPodGCThreshold: DEFAULT_TERMINATED_POD_GC_THRESHOLD, featureGates },
    workQueueMetrics: noopWorkQueueMetrics,
    scheduler: clock.scheduler,
    logger: silentLogger,
  };
  return { clock, context, factory };
}

/** A controller that records, at init, the node names its handler will see. */
function recording(
  name: string,
  seen: string[],
  extra: Partial<ControllerDescriptor> = {},
): ControllerDescriptor {
  return {
    name,
    aliases: [],
    init: (ctx) => {
      ctx.informerFactory.forResource(NODES).addEventHandler({
        onAdd: (n) => {
          seen.push(`${name}:${n.metadata?.name}`);
        },
      });
      return NEVER;
    },
    ...extra,
  };
}

describe('startControllers', () => {
  it('pauses interval × [1, 2) before each init and starts the informers only after the last, so every handler sees the whole list', () => {
    const { clock, context } = setup();
    const seen: string[] = [];
    const descriptors = new Map([
      ['a-controller', recording('a-controller', seen)],
      ['b-controller', recording('b-controller', seen)],
    ]);
    const events: [number, ControllerManagerEvent][] = [];
    const sub = startControllers({
      context,
      descriptors,
      startIntervalMs: 1000,
      random: () => 0.5,
      scheduler: clock.scheduler,
    }).subscribe((e) => events.push([clock.now(), e]));
    clock.advance(1499);
    expect(events).toEqual([]);
    clock.advance(1);
    expect(events).toEqual([[1500, { type: 'Started', controller: 'a-controller' }]]);
    expect(seen).toEqual([]); // informers not started yet
    clock.advance(1500);
    expect(events.slice(1)).toEqual([
      [3000, { type: 'Started', controller: 'b-controller' }],
      [3000, { type: 'InformersStarted' }],
    ]);
    clock.advance(0);
    expect(seen.sort()).toEqual(['a-controller:n1', 'a-controller:n2', 'b-controller:n1', 'b-controller:n2']);
    sub.unsubscribe();
  });

  it('skips by feature gate, cloud provider, --controllers, unbuilt and declined, and starts serviceaccount-token-controller first', () => {
    const { clock, context } = setup({ OnGate: true, OffGate: false });
    const descriptors = new Map<string, ControllerDescriptor>(
      [
        {
          name: 'gated-controller',
          aliases: [],
          requiredFeatureGates: ['OnGate', 'OffGate'],
          init: () => NEVER,
        },
        { name: 'cloud-controller', aliases: [], cloudProvider: true, init: () => NEVER },
        { name: 'off-controller', aliases: [], init: () => NEVER },
        { name: 'default-off-controller', aliases: [], disabledByDefault: true, init: () => NEVER },
        { name: 'unbuilt-controller', aliases: [] },
        { name: 'declining-controller', aliases: [], init: () => undefined },
        { name: 'serviceaccount-token-controller', aliases: [], init: () => NEVER },
      ].map((d) => [d.name, d]),
    );
    const events: ControllerManagerEvent[] = [];
    startControllers({
      context,
      descriptors,
      controllers: ['*', '-off-controller'],
      scheduler: clock.scheduler,
    }).subscribe((e) => events.push(e));
    clock.advance(0);
    expect(events).toEqual([
      { type: 'Started', controller: 'serviceaccount-token-controller' },
      { type: 'Skipped', controller: 'gated-controller', reason: 'featureGate' },
      { type: 'Skipped', controller: 'cloud-controller', reason: 'cloudProvider' },
      { type: 'Skipped', controller: 'off-controller', reason: 'disabled' },
      { type: 'Skipped', controller: 'default-off-controller', reason: 'disabled' },
      { type: 'Skipped', controller: 'unbuilt-controller', reason: 'notBuilt' },
      { type: 'Skipped', controller: 'declining-controller', reason: 'declined' },
      { type: 'InformersStarted' },
    ]);
  });

  it('ends with an error naming the controller when an init throws; reports a running controller that fails', () => {
    const { clock, context } = setup();
    const failing = new Map<string, ControllerDescriptor>([
      [
        'dies-controller',
        { name: 'dies-controller', aliases: [], init: () => throwError(() => new Error('lost')) },
      ],
      [
        'broken-controller',
        {
          name: 'broken-controller',
          aliases: [],
          init: () => {
            throw new Error('no CA');
          },
        },
      ],
    ]);
    const events: ControllerManagerEvent[] = [];
    let error: unknown;
    startControllers({ context, descriptors: failing, scheduler: clock.scheduler }).subscribe({
      next: (e) => events.push(e),
      error: (e) => {
        error = e;
      },
    });
    clock.advance(0);
    expect(events).toEqual([
      { type: 'Failed', controller: 'dies-controller', error: new Error('lost') },
      { type: 'Started', controller: 'dies-controller' },
    ]);
    expect((error as Error).message).toBe('error starting controller "broken-controller": no CA');
  });

  it('teardown stops every started controller and shuts the informer factory down', () => {
    const { clock, context, factory } = setup();
    let stopped = 0;
    const lasting = (name: string): ControllerDescriptor => ({
      name,
      aliases: [],
      init: (ctx) => {
        ctx.informerFactory.forResource(NODES);
        return new Observable(() => () => stopped++);
      },
    });
    const descriptors = new Map([
      ['x-controller', lasting('x-controller')],
      ['y-controller', lasting('y-controller')],
    ]);
    const sub = startControllers({ context, descriptors, scheduler: clock.scheduler }).subscribe();
    clock.advance(0);
    sub.unsubscribe();
    expect(stopped).toBe(2);
    expect(() => factory.forResource(NODES).addEventHandler({})).toThrow(/stopped already/);
  });
});
