// Properties of NodeResourcesFit's fitsRequest: the shortfalls are exactly the resources a pod's request exceeds the node's room for.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Node, Pod } from '../../../../../operators/api/core-v1.ts';
import { NodeInfo, type Resource } from '../../../../../operators/scheduling/framework/node-info.ts';
import { fitsRequest } from '../../../../../operators/scheduling/plugins/node-resources/node-resources-fit.ts';

const GPU = 'example.com/gpu';

function node(cpu: number, memoryMi: number, pods: number, gpus: number): Node {
  const allocatable: Record<string, string> = {
    cpu: `${cpu}m`,
    memory: `${memoryMi}Mi`,
    pods: String(pods),
    'ephemeral-storage': '10Gi',
  };
  if (gpus > 0) allocatable[GPU] = String(gpus);
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: 'n1' },
    status: { allocatable, capacity: allocatable },
  } as Node;
}

function pod(i: number, cpu: number, memoryMi: number): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `p${i}`, namespace: 'default', uid: `u${i}` },
    spec: {
      nodeName: 'n1',
      containers: [{ name: 'c', resources: { requests: { cpu: `${cpu}m`, memory: `${memoryMi}Mi` } } }],
    },
  } as Pod;
}

/** The shortfalls by upstream's definition, resource by resource, in its order. */
function expected(request: Resource, info: NodeInfo): string[] {
  const a = info.allocatable;
  const u = info.requested;
  const out: string[] = [];
  if (info.pods.length + 1 > a.allowedPodNumber) out.push('Too many pods');
  if (request.milliCPU > 0 && request.milliCPU > a.milliCPU - u.milliCPU) out.push('Insufficient cpu');
  if (request.memory > 0 && request.memory > a.memory - u.memory) out.push('Insufficient memory');
  if (request.ephemeralStorage > 0 && request.ephemeralStorage > a.ephemeralStorage - u.ephemeralStorage)
    out.push('Insufficient ephemeral-storage');
  for (const [name, q] of Object.entries(request.scalar)) {
    if (q > 0 && q > (a.scalar[name] ?? 0) - (u.scalar[name] ?? 0)) out.push(`Insufficient ${name}`);
  }
  return out;
}

const resources = fc.record({
  milliCPU: fc.integer({ min: 0, max: 5000 }),
  memory: fc.integer({ min: 0, max: 8 }).map((g) => g * 2 ** 30),
  ephemeralStorage: fc.constantFrom(0, 2 ** 30, 20 * 2 ** 30),
  gpus: fc.integer({ min: 0, max: 3 }),
});

describe('fitsRequest', () => {
  it('reports exactly the resources the request exceeds, whether the node is empty, full or overcommitted', () => {
    fc.assert(
      fc.property(
        resources,
        fc.integer({ min: 0, max: 8000 }),
        fc.integer({ min: 0, max: 16_384 }),
        fc.integer({ min: 0, max: 4 }),
        fc.integer({ min: 0, max: 2 }),
        fc.array(
          fc.record({ cpu: fc.integer({ min: 0, max: 3000 }), mem: fc.integer({ min: 0, max: 8192 }) }),
          {
            maxLength: 5,
          },
        ),
        (req, cpu, memoryMi, maxPods, gpus, running) => {
          const info = new NodeInfo(node(cpu, memoryMi, maxPods, gpus));
          running.forEach((r, i) => {
            info.addPod(pod(i, r.cpu, r.mem));
          });
          const request: Resource = {
            milliCPU: req.milliCPU,
            memory: req.memory,
            ephemeralStorage: req.ephemeralStorage,
            allowedPodNumber: 0,
            scalar: req.gpus > 0 ? { [GPU]: req.gpus } : {},
          };
          const got = fitsRequest(request, info).map((r) => r.reason);
          expect(got).toEqual(expected(request, info));
        },
      ),
      { numRuns: 500 },
    );
  });
});
