// metricsTable: NodeMetrics and PodMetrics as a meta.k8s.io/v1 Table (Name, cpu, memory, Window), as metrics-server converts them for `kubectl get`.
import { cpuQuantity, memoryQuantity } from './metrics-quantity.ts';

/** One row: an object's name, its usage (a pod's containers summed) and window, and the object. */
export interface MetricsRow {
  name: string;
  cpuNanoCores: number;
  memoryBytes: number;
  window: string;
  object: object;
}

/** Whether an Accept header asks for the Table form (meta.k8s.io v1 or v1beta1). */
export function wantsTable(accept: string | undefined): boolean {
  return (accept ?? '').split(',').some((range) => {
    const params = range.split(';').map((p) => p.trim());
    return params.includes('as=Table') && params.includes('g=meta.k8s.io');
  });
}

/** The Table of `rows`, one row each with its name, CPU, memory and window; the object rides along. */
export function metricsTable(rows: readonly MetricsRow[]): object {
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: {},
    columnDefinitions: [
      { name: 'Name', type: 'string', format: 'name', description: 'Name of the resource', priority: 0 },
      { name: 'cpu', type: 'string', format: 'quantity', description: '', priority: 0 },
      { name: 'memory', type: 'string', format: 'quantity', description: '', priority: 0 },
      { name: 'Window', type: 'string', format: 'duration', description: '', priority: 0 },
    ],
    rows: rows.map((r) => ({
      cells: [r.name, cpuQuantity(r.cpuNanoCores), memoryQuantity(r.memoryBytes), r.window],
      object: r.object,
    })),
  };
}
