// Strategic merge patch: a merge patch whose lists of known fields merge element by key.
import { KubeRxError } from '../../operators/errors.ts';
import { isPlainObject } from './merge-patch.ts';

/** A strategic merge patch that cannot be applied (bad directive or element without its merge key). */
export class StrategicMergePatchError extends KubeRxError {
  constructor(message: string) {
    super('KUBE_RX_STRATEGIC_MERGE_PATCH', message);
  }
}

/**
 * How a list field merges: by the value of `key` in each element, as a set of primitives, or (absent
 * from this table) replaced whole. These are the `patchMergeKey`s of the pod, job and deployment types.
 */
export const LIST_MERGE_KEYS: Readonly<Record<string, { key: string } | { set: true }>> = {
  containers: { key: 'name' },
  initContainers: { key: 'name' },
  ephemeralContainers: { key: 'name' },
  volumes: { key: 'name' },
  volumeMounts: { key: 'mountPath' },
  volumeDevices: { key: 'devicePath' },
  env: { key: 'name' },
  imagePullSecrets: { key: 'name' },
  conditions: { key: 'type' },
  ownerReferences: { key: 'uid' },
  hostAliases: { key: 'ip' },
  topologySpreadConstraints: { key: 'topologyKey' },
  resourceClaims: { key: 'name' },
  schedulingGates: { key: 'name' },
  podIPs: { key: 'ip' },
  addresses: { key: 'type' },
  taints: { key: 'key' },
  finalizers: { set: true },
};

/** `ports` merge by `containerPort` in containers and by `port` in services. */
function strategyFor(field: string, items: unknown[]): { key: string } | { set: true } | undefined {
  if (field === 'ports') {
    return items.some((i) => isPlainObject(i) && 'containerPort' in i)
      ? { key: 'containerPort' }
      : { key: 'port' };
  }
  return LIST_MERGE_KEYS[field];
}

const PATCH = '$patch';
const RETAIN = '$retainKeys';
const ORDER = '$setElementOrder/';
const DELETE_PRIMITIVE = '$deleteFromPrimitiveList/';

function stripDirectives(value: unknown): unknown {
  if (Array.isArray(value)) {
    return value
      .filter((v) => !(isPlainObject(v) && v[PATCH] !== undefined && Object.keys(v).length === 1))
      .map(stripDirectives);
  }
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === PATCH || k === RETAIN || k.startsWith(ORDER) || k.startsWith(DELETE_PRIMITIVE)) continue;
    if (v === null) continue;
    out[k] = stripDirectives(v);
  }
  return out;
}

function sameKey(a: unknown, b: unknown): boolean {
  return a === b || (a !== undefined && b !== undefined && String(a) === String(b));
}

function mergeList(field: string, original: unknown, patch: unknown[]): unknown[] {
  const orig = Array.isArray(original) ? original : [];
  if (patch.some((p) => isPlainObject(p) && p[PATCH] === 'replace')) {
    return stripDirectives(patch.filter((p) => !(isPlainObject(p) && p[PATCH] === 'replace'))) as unknown[];
  }
  const strategy = strategyFor(field, [...patch, ...orig]);
  if (!strategy) return stripDirectives(patch) as unknown[];
  if ('set' in strategy) {
    const out = [...orig];
    for (const p of patch) if (!out.some((o) => sameKey(o, p))) out.push(p);
    return out;
  }
  const key = strategy.key;
  const out = orig.map((o) => o);
  for (const item of patch) {
    if (!isPlainObject(item)) throw new StrategicMergePatchError(`${field}: element is not an object`);
    if (!Object.hasOwn(item, key)) {
      throw new StrategicMergePatchError(`${field}: element has no merge key "${key}"`);
    }
    const idx = out.findIndex((o) => isPlainObject(o) && sameKey(o[key], item[key]));
    if (item[PATCH] === 'delete') {
      if (idx >= 0) out.splice(idx, 1);
      continue;
    }
    if (idx >= 0) {
      const merged = mergeMap(out[idx] as Record<string, unknown>, item);
      if (merged === undefined) out.splice(idx, 1);
      else out[idx] = merged;
    } else {
      out.push(stripDirectives(item));
    }
  }
  return out;
}

function applyOrder(list: unknown[], order: unknown[], field: string): unknown[] {
  const strategy = strategyFor(field, [...list, ...order]);
  const keyOf = (v: unknown) => (strategy && 'key' in strategy && isPlainObject(v) ? v[strategy.key] : v);
  const rank = (v: unknown) => {
    const i = order.findIndex((o) => sameKey(keyOf(o), keyOf(v)));
    return i < 0 ? Number.MAX_SAFE_INTEGER : i;
  };
  return list
    .map((v, i) => ({ v, i, r: rank(v) }))
    .sort((a, b) => a.r - b.r || a.i - b.i)
    .map((x) => x.v);
}

function mergeMap(
  original: Record<string, unknown>,
  patch: Record<string, unknown>,
): Record<string, unknown> | undefined {
  const directive = patch[PATCH];
  if (directive === 'delete') return undefined;
  if (directive === 'replace') return stripDirectives(patch) as Record<string, unknown>;
  if (directive !== undefined && directive !== 'merge') {
    throw new StrategicMergePatchError(`unknown $patch directive ${JSON.stringify(directive)}`);
  }
  const out: Record<string, unknown> = { ...original };
  const orders: [string, unknown[]][] = [];
  for (const [key, value] of Object.entries(patch)) {
    if (key === PATCH || key === RETAIN) continue;
    if (key.startsWith(ORDER)) {
      if (Array.isArray(value)) orders.push([key.slice(ORDER.length), value]);
      continue;
    }
    if (key.startsWith(DELETE_PRIMITIVE)) {
      const field = key.slice(DELETE_PRIMITIVE.length);
      const drop = Array.isArray(value) ? value : [];
      if (Array.isArray(out[field]))
        out[field] = (out[field] as unknown[]).filter((v) => !drop.some((d) => sameKey(d, v)));
      continue;
    }
    if (value === null) {
      delete out[key];
    } else if (isPlainObject(value)) {
      const merged = mergeMap(isPlainObject(out[key]) ? out[key] : {}, value);
      if (merged === undefined) delete out[key];
      else out[key] = merged;
    } else if (Array.isArray(value)) {
      out[key] = mergeList(key, out[key], value);
    } else {
      out[key] = value;
    }
  }
  for (const [field, order] of orders) {
    if (Array.isArray(out[field])) out[field] = applyOrder(out[field] as unknown[], order, field);
  }
  const retain = patch[RETAIN];
  if (Array.isArray(retain)) {
    for (const k of Object.keys(out)) if (!retain.includes(k)) delete out[k];
  }
  return out;
}

/**
 * Applies a Kubernetes strategic merge patch: maps merge as in a JSON merge patch; lists named in
 * {@link LIST_MERGE_KEYS} merge element by key (or as a set), other lists are replaced; the
 * directives `$patch: delete|replace|merge`, `$retainKeys`, `$setElementOrder/<field>` and
 * `$deleteFromPrimitiveList/<field>` are honoured and never stored.
 *
 * Example: `strategicMergePatch({spec: {containers: [{name: 'a', image: 'x'}]}},
 * {spec: {containers: [{name: 'a', image: 'y'}]}})` changes the image of container `a` only.
 * @param original the current object (not mutated)
 * @param patch the patch document
 * @returns the patched object
 * @throws StrategicMergePatchError on a malformed patch
 */
export function strategicMergePatch(
  original: Record<string, unknown>,
  patch: unknown,
): Record<string, unknown> {
  if (!isPlainObject(patch))
    throw new StrategicMergePatchError('a strategic merge patch must be a JSON object');
  return mergeMap(original, patch) ?? {};
}
