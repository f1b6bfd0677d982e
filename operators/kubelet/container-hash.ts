// containerHash: a stable hash of a container's spec, recorded on the runtime container to notice a changed definition.
import type { Container } from '../api/core-v1.ts';

function stable(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stable).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stable(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * FNV-1a (32 bit) over the container's fields that need a restart when they change (everything but
 * resources and probes' timing is conservative here: the whole spec except `resources`), as hex.
 *
 * @example containerHash({ name: 'c', image: 'busybox' }) // e.g. '5c1f0a2b'
 * @param container the container spec
 * @returns 8 hex digits
 */
export function containerHash(container: Container): string {
  const { resources: _resources, ...rest } = container;
  const text = stable(rest);
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}
