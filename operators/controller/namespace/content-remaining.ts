// contentRemaining: what is left of one resource after the namespace controller deleted it, and how long to wait for it.
import { type DeletableResource, groupVersionResourceString } from './deletable-resources.ts';

/** The wait assumed for objects held by finalizers (upstream's finalizerEstimateSeconds). */
export const FINALIZER_ESTIMATE_SECONDS = 15;

/** One resource's outcome (upstream's gvrDeletionMetadata, with its error). */
export interface ContentRemaining {
  /** Seconds to wait before looking again; 0 means no wait is expected (not that nothing remains). */
  estimateSeconds: number;
  /** Objects still listed. */
  remaining: number;
  /** For each finalizer, how many remaining objects carry it. */
  finalizers: Readonly<Record<string, number>>;
  /** Objects remain that nothing explains (no finalizer, no grace period): a content failure. */
  error?: string;
}

/**
 * Judges the objects still listed after a delete: none → done; some with a graceful-termination estimate
 * → wait that long; some with finalizers → wait {@link FINALIZER_ESTIMATE_SECONDS}; some with neither →
 * an error naming the namespace and resource ("unexpected items still remain in namespace").
 *
 * @example
 * contentRemaining(configMaps, 'team', [{ metadata: { finalizers: ['example.com/hold'] } }], 0);
 * // { estimateSeconds: 15, remaining: 1, finalizers: { 'example.com/hold': 1 } }
 * @param resource the resource deleted
 * @param namespace the namespace
 * @param items the objects listed after the delete (metadata is enough)
 * @param estimateSeconds the graceful-termination estimate for this resource (pods), else 0
 * @returns the outcome
 */
export function contentRemaining(
  resource: Pick<DeletableResource, 'group' | 'version' | 'resource'>,
  namespace: string,
  items: readonly { metadata?: { finalizers?: readonly string[] } }[],
  estimateSeconds: number,
): ContentRemaining {
  if (items.length === 0) return { estimateSeconds: 0, remaining: 0, finalizers: {} };
  const finalizers: Record<string, number> = {};
  for (const item of items)
    for (const f of item.metadata?.finalizers ?? []) finalizers[f] = (finalizers[f] ?? 0) + 1;
  if (estimateSeconds !== 0) return { estimateSeconds, remaining: items.length, finalizers };
  if (Object.keys(finalizers).length > 0)
    return { estimateSeconds: FINALIZER_ESTIMATE_SECONDS, remaining: items.length, finalizers };
  return {
    estimateSeconds,
    remaining: items.length,
    finalizers: {},
    error: `unexpected items still remain in namespace: ${namespace} for gvr: ${groupVersionResourceString(resource)}`,
  };
}
