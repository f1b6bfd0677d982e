// Property of endpointSlicePlan: after any interleaving of pod readiness changes, deletions, additions, terminations, selector changes and syncs, one more sync leaves a Service's slices listing exactly its ready pods as ready, every selected live pod once, within the size limit, and a further sync changes nothing.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../../../operators/api/core-v1.ts';
import { endpointSlicePlan } from '../../../../operators/controller/endpointslice/endpoint-slice-plan.ts';
import type {
  EndpointSlice,
  Service,
} from '../../../../operators/controller/endpointslice/endpoint-slice-types.ts';
import { applyPlan, node, nodesOf, pod, service } from './endpoint-slice-fixtures.ts';

type Command =
  | { type: 'add'; i: number; ready: boolean; tier: boolean }
  | { type: 'ready'; i: number; ready: boolean }
  | { type: 'delete'; i: number }
  | { type: 'terminate'; i: number }
  | { type: 'selector'; tier: boolean }
  | { type: 'sync' };

const add = fc.record({
  type: fc.constant('add' as const),
  i: fc.nat(11),
  ready: fc.boolean(),
  tier: fc.boolean(),
});
const command: fc.Arbitrary<Command> = fc.oneof(
  { arbitrary: add, weight: 4 },
  fc.record({ type: fc.constant('ready' as const), i: fc.nat(11), ready: fc.boolean() }),
  fc.record({ type: fc.constant('delete' as const), i: fc.nat(11) }),
  fc.record({ type: fc.constant('terminate' as const), i: fc.nat(11) }),
  fc.record({ type: fc.constant('selector' as const), tier: fc.boolean() }),
  fc.constant({ type: 'sync' as const }),
);

const nodes = nodesOf(node('node-1', 'z'));
const selects = (svc: Service, p: Pod) =>
  Object.entries(svc.spec.selector ?? {}).every(([k, v]) => p.metadata.labels?.[k] === v);

describe('endpointSlicePlan (property)', () => {
  it('slices converge to exactly the selected pods, ready ones marked ready, whatever came before', () => {
    fc.assert(
      fc.property(
        fc.array(add, { maxLength: 12 }),
        fc.array(command, { maxLength: 40 }),
        fc.integer({ min: 1, max: 4 }),
        (initial, rest, max) => {
          const commands: Command[] = [...initial, { type: 'sync' }, ...rest];
          const pods = new Map<number, Pod>();
          let svc = service();
          let slices: EndpointSlice[] = [];
          const counter = { n: 0 };
          const sync = () => {
            const selected = [...pods.values()].filter((p) => selects(svc, p));
            slices = applyPlan(
              slices,
              endpointSlicePlan({
                service: svc,
                pods: selected,
                nodeOf: nodes,
                existing: slices,
                maxEndpointsPerSlice: max,
              }),
              counter,
            );
          };
          for (const c of commands) {
            const p = 'i' in c ? pods.get(c.i) : undefined;
            if (c.type === 'add' && !p) {
              const made = pod(c.i, { ready: c.ready });
              if (c.tier) made.metadata.labels = { ...made.metadata.labels, tier: 'front' };
              pods.set(c.i, made);
            } else if (c.type === 'ready' && p) {
              pods.set(c.i, {
                ...p,
                status: { ...p.status, conditions: [{ type: 'Ready', status: c.ready ? 'True' : 'False' }] },
              });
            } else if (c.type === 'delete') pods.delete(c.i);
            else if (c.type === 'terminate' && p) {
              pods.set(c.i, { ...p, metadata: { ...p.metadata, deletionTimestamp: '2024-01-01T00:00:00Z' } });
            } else if (c.type === 'selector') {
              svc = {
                ...svc,
                spec: { ...svc.spec, selector: c.tier ? { app: 'web', tier: 'front' } : { app: 'web' } },
              };
            } else if (c.type === 'sync') sync();
          }
          sync();
          const selected = [...pods.values()].filter((p) => selects(svc, p));
          const endpoints = slices.flatMap((s) => s.endpoints ?? []);
          const ip = (p: Pod) => p.status!.podIP!;
          const isReady = (p: Pod) =>
            !p.metadata.deletionTimestamp && p.status?.conditions?.[0]?.status === 'True';
          expect(
            endpoints
              .filter((e) => e.conditions?.ready)
              .flatMap((e) => e.addresses)
              .sort(),
          ).toEqual(selected.filter(isReady).map(ip).sort());
          expect(endpoints.flatMap((e) => e.addresses).sort()).toEqual(selected.map(ip).sort());
          for (const s of slices) expect((s.endpoints ?? []).length).toBeLessThanOrEqual(max);
          // at most one placeholder, and only when there is nothing else
          const empty = slices.filter((s) => (s.endpoints ?? []).length === 0);
          expect(empty.length).toBe(endpoints.length === 0 ? 1 : 0);
          const again = endpointSlicePlan({
            service: svc,
            pods: selected,
            nodeOf: nodes,
            existing: slices,
            maxEndpointsPerSlice: max,
          });
          expect(again).toEqual({ create: [], update: [], delete: [], skipped: [] });
        },
      ),
      { numRuns: 300 },
    );
  });
});
