// Property: after any sequence of applies by several managers, ownership and values follow server-side apply's rules.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../operators/types.ts';
import { ApiStatusError } from '../../../../src/apiserver/api-status.ts';
import { FieldManager, type ManagedFieldsEntry } from '../../../../src/apiserver/apply/field-manager.ts';
import { FieldSet, pathToString } from '../../../../src/apiserver/apply/field-set.ts';
import { RESOURCES } from '../../../../src/apiserver/resource-table.ts';

const PODS = RESOURCES.find((d) => d.resource === 'pods')!;
const MANAGERS = ['alice', 'bob', 'carol'] as const;
const SCALARS = {
  deadline: '.spec.activeDeadlineSeconds',
  hostname: '.spec.hostname',
  x: '.metadata.labels.x',
  y: '.metadata.labels.y',
};
type Scalar = keyof typeof SCALARS;
const CONTAINERS = ['c1', 'c2'] as const;

/** One apply: who, which fields with which values (a container always with its image), forced or not. */
interface ApplyOp {
  manager: (typeof MANAGERS)[number];
  scalars: Partial<Record<Scalar, number>>;
  images: Partial<Record<(typeof CONTAINERS)[number], number>>;
  force: boolean;
}

const applyOp: fc.Arbitrary<ApplyOp> = fc.record({
  manager: fc.constantFrom(...MANAGERS),
  scalars: fc.record(
    {
      deadline: fc.integer({ min: 1, max: 2 }),
      hostname: fc.integer({ min: 1, max: 2 }),
      x: fc.integer({ min: 1, max: 2 }),
      y: fc.integer({ min: 1, max: 2 }),
    },
    { requiredKeys: [] },
  ),
  images: fc.record(
    { c1: fc.integer({ min: 1, max: 2 }), c2: fc.integer({ min: 1, max: 2 }) },
    { requiredKeys: [] },
  ),
  force: fc.boolean(),
});

function configOf(op: ApplyOp): KubeObject {
  const labels: Record<string, string> = {};
  if (op.scalars.x !== undefined) labels.x = `v${op.scalars.x}`;
  if (op.scalars.y !== undefined) labels.y = `v${op.scalars.y}`;
  const spec: Record<string, unknown> = {};
  if (op.scalars.deadline !== undefined) spec.activeDeadlineSeconds = op.scalars.deadline;
  if (op.scalars.hostname !== undefined) spec.hostname = `h${op.scalars.hostname}`;
  const containers = CONTAINERS.filter((c) => op.images[c] !== undefined).map((c) => ({
    name: c,
    image: `i${op.images[c]}`,
  }));
  if (containers.length) spec.containers = containers;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'ns', ...(Object.keys(labels).length ? { labels } : {}) },
    ...(Object.keys(spec).length ? { spec } : {}),
  };
}

/** The fields of the model: a path printed as upstream prints it, with the value it holds. */
function fieldsOf(op: ApplyOp): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [k, v] of Object.entries(op.scalars)) out.set(SCALARS[k as Scalar], v);
  for (const c of CONTAINERS) {
    const v = op.images[c];
    if (v === undefined) continue;
    const item = `.spec.containers[name="${c}"]`;
    out.set(item, 'item');
    out.set(`${item}.name`, c);
    out.set(`${item}.image`, v);
  }
  return out;
}

/** The reference model: each field's value and owners, updated by the rules the property states. */
class Model {
  values = new Map<string, unknown>();
  owners = new Map<string, Set<string>>();
  applied = new Map<string, Map<string, unknown>>();

  /** @returns false when the apply conflicts and is not forced (nothing changes) */
  apply(op: ApplyOp): boolean {
    const config = fieldsOf(op);
    const conflicting = [...config].some(([path, v]) => {
      const others = [...(this.owners.get(path) ?? [])].filter((o) => o !== op.manager);
      return others.length > 0 && this.values.has(path) && this.values.get(path) !== v;
    });
    if (conflicting && !op.force) return false;
    for (const [path, v] of config) {
      const owners = this.owners.get(path) ?? new Set<string>();
      if (this.values.get(path) !== v) owners.clear();
      owners.add(op.manager);
      this.owners.set(path, owners);
      this.values.set(path, v);
    }
    for (const path of this.applied.get(op.manager)?.keys() ?? []) {
      if (config.has(path)) continue;
      const owners = this.owners.get(path);
      owners?.delete(op.manager);
      if (!owners?.size) this.drop(path);
    }
    this.applied.set(op.manager, config);
    return true;
  }

  private drop(path: string): void {
    this.owners.delete(path);
    this.values.delete(path);
    // An item nobody owns goes with everything in it.
    if (!path.endsWith('"]')) return;
    for (const p of [...this.values.keys()]) if (p.startsWith(`${path}.`)) this.drop(p);
  }

  ownership(): Record<string, string[]> {
    const out: Record<string, string[]> = {};
    for (const [path, owners] of this.owners)
      for (const o of owners) {
        out[o] ??= [];
        out[o].push(path);
      }
    for (const o of Object.keys(out)) out[o]!.sort();
    return out;
  }
}

function ownershipOf(pod: KubeObject | undefined): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const e of (pod?.metadata?.managedFields ?? []) as ManagedFieldsEntry[])
    out[e.manager!] = FieldSet.fromFieldsV1(e.fieldsV1)
      .paths()
      .map((p) => pathToString(p))
      .sort();
  return out;
}

function valuesOf(pod: KubeObject | undefined): Map<string, unknown> {
  const out = new Map<string, unknown>();
  const spec = (pod?.spec ?? {}) as Record<string, unknown>;
  const labels = pod?.metadata?.labels ?? {};
  if (spec.activeDeadlineSeconds !== undefined) out.set(SCALARS.deadline, spec.activeDeadlineSeconds);
  if (spec.hostname !== undefined) out.set(SCALARS.hostname, Number(String(spec.hostname).slice(1)));
  if (labels.x !== undefined) out.set(SCALARS.x, Number(labels.x.slice(1)));
  if (labels.y !== undefined) out.set(SCALARS.y, Number(labels.y.slice(1)));
  for (const c of (spec.containers ?? []) as { name: string; image?: string }[]) {
    const item = `.spec.containers[name="${c.name}"]`;
    out.set(item, 'item');
    out.set(`${item}.name`, c.name);
    if (c.image !== undefined) out.set(`${item}.image`, Number(c.image.slice(1)));
  }
  return out;
}

describe('server-side apply ownership', () => {
  it('each field is owned by the last manager that applied it (sharing an equal value), unless another forced it away; a conflicting apply without force changes nothing', () => {
    fc.assert(
      fc.property(fc.array(applyOp, { minLength: 1, maxLength: 12 }), (ops) => {
        const fm = new FieldManager();
        const model = new Model();
        let live: KubeObject | undefined;
        const lastApplier = new Map<string, string>();
        ops.forEach((op, i) => {
          const w = {
            def: PODS,
            manager: op.manager,
            time: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
          };
          const before = structuredClone(live);
          const accepted = model.apply(op);
          try {
            live = fm.apply(w, live, configOf(op), op.force).object;
            expect(accepted, `op ${i} applied although the model expects a conflict`).toBe(true);
          } catch (error) {
            if (!(error instanceof ApiStatusError) || error.statusCode !== 409) throw error;
            expect(accepted, `op ${i} conflicted: ${error.message}`).toBe(false);
            expect(live).toEqual(before);
          }
          expect(Object.fromEntries(valuesOf(live))).toEqual(Object.fromEntries(model.values));
          expect(ownershipOf(live)).toEqual(model.ownership());
          // Stated directly: whoever applied a field last (and still applies it) owns it.
          if (accepted) {
            for (const [path, m] of lastApplier) if (m === op.manager) lastApplier.delete(path);
            for (const path of fieldsOf(op).keys()) lastApplier.set(path, op.manager);
          }
          for (const [path, m] of lastApplier) expect(ownershipOf(live)[m] ?? []).toContain(path);
        });
      }),
      { numRuns: 300 },
    );
  });
});
