// namespaceConditions: the NamespaceDeletion* status conditions the namespace controller keeps on a terminating namespace.
import type { NamespaceCondition } from './namespace-types.ts';

/** The condition types, in the order upstream writes them. */
export const NAMESPACE_DELETION_CONDITIONS = [
  'NamespaceDeletionDiscoveryFailure',
  'NamespaceDeletionGroupVersionParsingFailure',
  'NamespaceDeletionContentFailure',
  'NamespaceContentRemaining',
  'NamespaceFinalizersRemaining',
] as const;
export type NamespaceDeletionCondition = (typeof NAMESPACE_DELETION_CONDITIONS)[number];

const OK: Record<NamespaceDeletionCondition, { reason: string; message: string }> = {
  NamespaceDeletionDiscoveryFailure: {
    reason: 'ResourcesDiscovered',
    message: 'All resources successfully discovered',
  },
  NamespaceDeletionGroupVersionParsingFailure: {
    reason: 'ParsedGroupVersions',
    message: 'All legacy kube types successfully parsed',
  },
  NamespaceDeletionContentFailure: {
    reason: 'ContentDeleted',
    message: 'All content successfully deleted, may be waiting on finalization',
  },
  NamespaceContentRemaining: { reason: 'ContentRemoved', message: 'All content successfully removed' },
  NamespaceFinalizersRemaining: { reason: 'ContentRemoved', message: 'All content successfully removed' },
};

/** What one pass of the deleter ran into. */
export interface NamespaceDeletionProblems {
  /** Group-versions discovery could not read, with their errors (ErrGroupDiscoveryFailed). */
  discoveryFailures?: readonly { groupVersion: string; message: string }[];
  /** Discovery failed as a whole (no group list at all): its error. */
  discoveryError?: string;
  /** A group-version string that did not parse. */
  groupVersionError?: string;
  /** One message per resource whose content could not be deleted. */
  contentErrors?: readonly string[];
  /** Objects remaining, per resource (`pods`, group `''`). */
  remaining?: readonly { group: string; resource: string; count: number }[];
  /** Objects remaining, per finalizer. */
  finalizers?: Readonly<Record<string, number>>;
}

function failures(
  p: NamespaceDeletionProblems,
): Partial<Record<NamespaceDeletionCondition, NamespaceCondition>> {
  const out: Partial<Record<NamespaceDeletionCondition, NamespaceCondition>> = {};
  const failed = p.discoveryFailures ?? [];
  if (p.discoveryError !== undefined || failed.length > 0) {
    const groups = failed.map((f) => `${f.groupVersion}: ${f.message}`).sort();
    out.NamespaceDeletionDiscoveryFailure = {
      type: 'NamespaceDeletionDiscoveryFailure',
      status: 'True',
      reason: 'DiscoveryFailed',
      message:
        failed.length > 0
          ? `Discovery failed for some groups, ${failed.length} failing: unable to retrieve the complete list of server APIs: ${groups.join(', ')}`
          : String(p.discoveryError),
    };
  }
  if (p.groupVersionError !== undefined) {
    out.NamespaceDeletionGroupVersionParsingFailure = {
      type: 'NamespaceDeletionGroupVersionParsingFailure',
      status: 'True',
      reason: 'GroupVersionParsingFailed',
      message: p.groupVersionError,
    };
  }
  const remaining = (p.remaining ?? []).filter((r) => r.count > 0);
  if (remaining.length > 0) {
    const parts = remaining.map((r) => `${r.resource}.${r.group} has ${r.count} resource instances`).sort();
    out.NamespaceContentRemaining = {
      type: 'NamespaceContentRemaining',
      status: 'True',
      reason: 'SomeResourcesRemain',
      message: `Some resources are remaining: ${parts.join(', ')}`,
    };
  }
  const byFinalizer = Object.entries(p.finalizers ?? {}).filter(([, n]) => n > 0);
  if (byFinalizer.length > 0) {
    const parts = byFinalizer.map(([f, n]) => `${f} in ${n} resource instances`).sort();
    out.NamespaceFinalizersRemaining = {
      type: 'NamespaceFinalizersRemaining',
      status: 'True',
      reason: 'SomeFinalizersRemain',
      message: `Some content in the namespace has finalizers remaining: ${parts.join(', ')}`,
    };
  }
  const errors = [...(p.contentErrors ?? [])].sort();
  if (errors.length > 0) {
    out.NamespaceDeletionContentFailure = {
      type: 'NamespaceDeletionContentFailure',
      status: 'True',
      reason: 'ContentDeletionFailed',
      message: `Failed to delete all resource types, ${errors.length} remaining: ${errors.join(', ')}`,
    };
  }
  return out;
}

/**
 * The namespace's conditions after one deletion pass: each of the five types is set to its failure
 * (status True, with upstream's reason and message) or to its "ok" variant (status False); other
 * conditions are kept. A condition whose status flips gets `now` as its lastTransitionTime.
 *
 * @example
 * namespaceConditions([], { finalizers: { 'example.com/hold': 1 } }, '2025-01-01T00:00:00Z').conditions
 *   .find((c) => c.type === 'NamespaceFinalizersRemaining'); // status True, SomeFinalizersRemain
 * @param current the namespace's status.conditions
 * @param problems what the pass ran into
 * @param now the time to stamp (RFC 3339)
 * @returns the new conditions, and whether they differ from `current` (write status only then)
 */
export function namespaceConditions(
  current: readonly NamespaceCondition[],
  problems: NamespaceDeletionProblems,
  now: string,
): { conditions: NamespaceCondition[]; changed: boolean } {
  const next = failures(problems);
  const conditions = current.map((c) => ({ ...c }));
  let changed = false;
  for (const type of NAMESPACE_DELETION_CONDITIONS) {
    const wanted = next[type] ?? { type, status: 'False' as const, ...OK[type] };
    const old = conditions.find((c) => c.type === type);
    if (!old) {
      conditions.push({ ...wanted, lastTransitionTime: now });
      changed = true;
    } else if (
      old.status !== wanted.status ||
      old.message !== wanted.message ||
      old.reason !== wanted.reason
    ) {
      if (old.status !== wanted.status) old.lastTransitionTime = now;
      old.status = wanted.status;
      old.reason = wanted.reason;
      old.message = wanted.message;
      changed = true;
    }
  }
  return { conditions, changed };
}
