// podTemplateHash: the pod-template-hash label value of a Deployment's ReplicaSet — FNV-32a of the template and the collision count, rendered as upstream's SafeEncodeString.
import type { ObjectMeta } from '../../types.ts';

/** The alphabet of upstream's rand.SafeEncodeString: no vowels, no look-alike digits (0, 1, 3). */
const SAFE_ALPHANUMS = 'bcdfghjklmnpqrstvwxz2456789';

/** Each character of `s` replaced by the safe alphabet's character at (its code mod 27), as upstream's SafeEncodeString. */
export function safeEncodeString(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) out += SAFE_ALPHANUMS[s.charCodeAt(i) % SAFE_ALPHANUMS.length];
  return out;
}

/** FNV-1a, 32 bits, over bytes. */
export function fnv32a(bytes: Uint8Array, seed = 0x811c9dc5): number {
  let h = seed >>> 0;
  for (const b of bytes) {
    h ^= b;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** JSON with object keys sorted and empty maps, empty arrays and nulls dropped, so semantically equal templates hash equally. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(canonical(value)) ?? 'null';
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) {
      const v = canonical((value as Record<string, unknown>)[k]);
      if (v === undefined || v === null) continue;
      if (Array.isArray(v) && v.length === 0) continue;
      if (typeof v === 'object' && !Array.isArray(v) && Object.keys(v as object).length === 0) continue;
      out[k] = v;
    }
    return out;
  }
  return value;
}

const encoder = new TextEncoder();

/**
 * The pod-template-hash of a template (upstream's controller.ComputeHash): FNV-32a over the template (here
 * its canonical JSON; upstream hashes Go's printed form, so the values differ from a real cluster's), then,
 * when a collision count is set, its 8 little-endian bytes; the decimal of the sum, safe-encoded.
 *
 * @example
 * podTemplateHash({ metadata: { labels: { app: 'web' } }, spec }, undefined);   // e.g. '5d8f6b9c7b'
 * @param template the Deployment's pod template (without the hash label)
 * @param collisionCount status.collisionCount, when set
 */
export function podTemplateHash(
  template: { metadata?: ObjectMeta; spec?: unknown } | undefined,
  collisionCount: number | undefined,
): string {
  let h = fnv32a(encoder.encode(canonicalJson(template ?? {})));
  if (collisionCount !== undefined && collisionCount !== null) {
    const bytes = new Uint8Array(8);
    new DataView(bytes.buffer).setUint32(0, collisionCount >>> 0, true);
    h = fnv32a(bytes, h);
  }
  return safeEncodeString(String(h));
}

/**
 * Whether two pod templates are the same ignoring the pod-template-hash label (upstream's EqualIgnoreHash),
 * comparing canonical JSON (empty and absent maps and lists are equal, as Go's semantic equality has them).
 */
export function equalIgnoreHash(
  a: { metadata?: ObjectMeta; spec?: unknown } | undefined,
  b: { metadata?: ObjectMeta; spec?: unknown } | undefined,
): boolean {
  return canonicalJson(withoutHash(a)) === canonicalJson(withoutHash(b));
}

function withoutHash(t: { metadata?: ObjectMeta; spec?: unknown } | undefined): unknown {
  if (!t) return {};
  const labels = { ...(t.metadata?.labels ?? {}) };
  delete labels['pod-template-hash'];
  return { ...t, metadata: { ...(t.metadata ?? {}), labels } };
}
