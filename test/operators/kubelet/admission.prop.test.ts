// Properties of admission: pods admitted one by one never oversubscribe the node nor share a host port; refusals name the first failure.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Node, Pod } from '../../../operators/api/core-v1.ts';
import { admitPod } from '../../../operators/kubelet/admission.ts';

const arbPod = (i: number) =>
  fc
    .record({
      cpu: fc.integer({ min: 0, max: 1500 }),
      memory: fc.integer({ min: 0, max: 3000 }),
      hostPort: fc.option(fc.integer({ min: 8000, max: 8004 }), { nil: undefined }),
    })
    .map(
      ({ cpu, memory, hostPort }): Pod => ({
        metadata: { uid: `u${i}`, name: `p${i}`, namespace: 'ns' },
        spec: {
          containers: [
            {
              name: 'c',
              resources: {
                requests: {
                  ...(cpu ? { cpu: `${cpu}m` } : {}),
                  ...(memory ? { memory: String(memory) } : {}),
                },
              },
              ...(hostPort ? { ports: [{ containerPort: 80, hostPort }] } : {}),
            },
          ],
        },
      }),
    );

const arbPods = fc
  .integer({ min: 0, max: 25 })
  .chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => arbPod(i))));

describe('admitPod (properties)', () => {
  it('the pods admitted in turn fit the allocatable cpu, memory and pod count and never share a host port', () => {
    fc.assert(
      fc.property(arbPods, fc.integer({ min: 1, max: 12 }), (pods, maxPods) => {
        const node: Node = {
          metadata: { name: 'n' },
          status: { allocatable: { cpu: '4', memory: '10000', pods: maxPods } },
        };
        const admitted: Pod[] = [];
        for (const p of pods) {
          const result = admitPod(p, node, admitted);
          if (result.admit) admitted.push(p);
          else expect(result.reason).toMatch(/^(OutOf(cpu|memory|pods)|NodePorts)$/);
        }
        const req = (p: Pod, r: 'cpu' | 'memory') => {
          const v = p.spec.containers[0]?.resources?.requests?.[r];
          return v === undefined ? 0 : r === 'cpu' ? Number(String(v).slice(0, -1)) : Number(v);
        };
        expect(admitted.length).toBeLessThanOrEqual(maxPods);
        expect(admitted.reduce((s, p) => s + req(p, 'cpu'), 0)).toBeLessThanOrEqual(4000);
        expect(admitted.reduce((s, p) => s + req(p, 'memory'), 0)).toBeLessThanOrEqual(10000);
        const ports = admitted.flatMap((p) => p.spec.containers[0]?.ports?.map((x) => x.hostPort) ?? []);
        expect(new Set(ports).size).toBe(ports.length);
      }),
    );
  });

  it('the verdict does not depend on the order of the pods already admitted', () => {
    fc.assert(
      fc.property(arbPods, arbPod(99), (others, candidate) => {
        const node: Node = {
          metadata: { name: 'n' },
          status: { allocatable: { cpu: '100', memory: '1000000', pods: 200 } },
        };
        const forward = admitPod(candidate, node, others);
        const backward = admitPod(candidate, node, [...others].reverse());
        expect(backward).toEqual(forward);
      }),
    );
  });
});
