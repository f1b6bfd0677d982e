// A Registry over an in-memory store with the full resource table, bootstrapped, for admission tests.
import type { KubeObject } from '../../../../operators/types.ts';
import { ObjectStore } from '../../../../src/apiserver/object-store.ts';
import { Registry } from '../../../../src/apiserver/registry.ts';
import { RESOURCES, resourceId } from '../../../../src/apiserver/resource-table.ts';

/**
 * A bootstrapped registry and shorthands to create and read objects by resource id. It stands alone, so by
 * default it does the namespace and serviceaccount controllers' work itself (`builtinNamespaceControllers`).
 */
export function registryFixture(
  now = () => Date.parse('2026-01-01T00:00:00Z'),
  { builtinNamespaceControllers = true } = {},
) {
  let seed = 1;
  const registry = new Registry(new ObjectStore(), RESOURCES, {
    now,
    builtinNamespaceControllers,
    random: () => {
      seed = (seed * 16807) % 2147483647;
      return seed / 2147483647;
    },
  });
  registry.bootstrap();
  const def = (id: string) => {
    const d = RESOURCES.find((r) => resourceId(r) === id);
    if (!d) throw new Error(`no resource ${id}`);
    return d;
  };
  return {
    registry,
    def,
    create: (id: string, namespace: string | undefined, object: object): KubeObject =>
      registry.create(def(id), namespace, structuredClone(object)),
    get: (id: string, namespace: string | undefined, name: string): KubeObject =>
      registry.get(def(id), namespace, name).object,
    remove: (id: string, namespace: string | undefined, name: string) =>
      registry.delete(def(id), namespace, name, { gracePeriodSeconds: 0 }),
  };
}

/** A pod with one container per entry of `containers` (name → resources). */
export function pod(
  name: string,
  containers: Record<string, object> = { c: {} },
  spec: object = {},
): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name },
    spec: {
      containers: Object.entries(containers).map(([n, resources]) => ({
        name: n,
        image: 'nginx:1.27',
        resources,
      })),
      ...spec,
    },
  } as KubeObject;
}

/** What a refused call threw: its HTTP code and message. */
export function refusal(run: () => unknown): { code: number; message: string } | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    const e = error as { statusCode?: number; message?: string };
    return { code: e.statusCode ?? 0, message: String(e.message) };
  }
}
