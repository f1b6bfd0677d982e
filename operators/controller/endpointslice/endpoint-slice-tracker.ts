// EndpointSliceTracker: the slices this controller last wrote or deleted, per Service, so a sync on a cache that has not caught up waits instead of writing twice (upstream's endpointsliceutil.EndpointSliceTracker).
import type { EndpointSlice } from './endpoint-slice-types.ts';

const DELETION_EXPECTED = 'deletion-expected';

/** a is a later resourceVersion than b (numeric when both are, as the embedded and etcd servers give). */
function later(a: string | undefined, b: string | undefined): boolean {
  if (a === undefined || b === undefined) return a !== undefined;
  if (/^\d+$/.test(a) && /^\d+$/.test(b)) return BigInt(a) > BigInt(b);
  return a !== b;
}

/**
 * Per Service key, the resourceVersion of each slice this controller wrote, or the mark that it deleted
 * the slice. Invariants: a Service's cached slices are stale when one is older than what was written,
 * one expected gone is still there, or one written is missing; an informer event for a slice at or
 * before the version written needs no sync. The resourceVersion stands in for upstream's generation
 * (EndpointSlices carry no spec, so the API server gives them no generation).
 */
export class EndpointSliceTracker {
  private readonly byService = new Map<string, Map<string, string>>();

  private slicesOf(serviceKey: string): Map<string, string> {
    const known = this.byService.get(serviceKey);
    if (known) return known;
    const made = new Map<string, string>();
    this.byService.set(serviceKey, made);
    return made;
  }

  /** Records a slice as written at its resourceVersion. */
  update(serviceKey: string, slice: EndpointSlice): void {
    const uid = slice.metadata.uid;
    if (!uid) return;
    this.slicesOf(serviceKey).set(uid, slice.metadata.resourceVersion ?? '');
  }

  /** Records that this controller deleted the slice. */
  expectDeletion(serviceKey: string, slice: EndpointSlice): void {
    const uid = slice.metadata.uid;
    if (!uid) return;
    this.slicesOf(serviceKey).set(uid, DELETION_EXPECTED);
  }

  /** True when an informer event about this slice is news (not this controller's own write). */
  shouldSync(serviceKey: string, slice: EndpointSlice): boolean {
    const written = this.byService.get(serviceKey)?.get(slice.metadata.uid ?? '');
    if (written === undefined) return true;
    if (written === DELETION_EXPECTED) return false;
    return later(slice.metadata.resourceVersion, written);
  }

  /** Forgets a deleted slice; true when its deletion was not this controller's (the Service needs a sync). */
  handleDeletion(serviceKey: string, slice: EndpointSlice): boolean {
    const m = this.byService.get(serviceKey);
    const uid = slice.metadata.uid ?? '';
    const written = m?.get(uid);
    m?.delete(uid);
    if (m?.size === 0) this.byService.delete(serviceKey);
    return written !== DELETION_EXPECTED;
  }

  /** True when the cached slices of a Service do not yet show what this controller last did. */
  staleSlices(serviceKey: string, cached: readonly EndpointSlice[]): boolean {
    const m = this.byService.get(serviceKey);
    if (!m) return false;
    const seen = new Set<string>();
    for (const s of cached) {
      const uid = s.metadata.uid ?? '';
      seen.add(uid);
      const written = m.get(uid);
      if (written === undefined) continue;
      if (written === DELETION_EXPECTED || later(written, s.metadata.resourceVersion)) return true;
    }
    for (const [uid, written] of m) if (written !== DELETION_EXPECTED && !seen.has(uid)) return true;
    return false;
  }

  /** Forgets a Service. */
  deleteService(serviceKey: string): void {
    this.byService.delete(serviceKey);
  }
}
