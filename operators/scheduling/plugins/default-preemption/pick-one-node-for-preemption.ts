// pickOneNodeForPreemption: the candidate node whose preemption does the least harm, by upstream's tie-breakers in order.
import type { Pod } from '../../../api/core-v1.ts';
import { earliestStartTimeOfMostImportant, podPriority } from './pod-importance.ts';

/** A node where preemption helps: its victims (most important first) and their PDB violations. */
export interface Candidate {
  readonly name: string;
  readonly victims: readonly Pod[];
  readonly numPdbViolations: number;
}

const INT32_SPAN = 2 ** 31;

/**
 * Picks one candidate: the nodes with the highest score of each criterion survive to the next one:
 * 1. fewest PDB violations; 2. lowest highest-victim priority; 3. smallest sum of (priority + 2^31);
 * 4. fewest victims; 5. latest earliest start time among the highest-priority victims; 6. the first.
 * Returns undefined for no candidates.
 */
export function pickOneNodeForPreemption(
  candidates: readonly Candidate[],
  now: number,
): Candidate | undefined {
  if (candidates.length <= 1) return candidates[0];
  const criteria: ((c: Candidate) => number)[] = [
    (c) => -c.numPdbViolations,
    (c) => (c.victims.length > 0 ? -podPriority(c.victims[0]!) : 0),
    (c) => -c.victims.reduce((sum, p) => sum + podPriority(p) + INT32_SPAN, 0),
    (c) => -c.victims.length,
    (c) => earliestStartTimeOfMostImportant(c.victims, now) ?? Number.NEGATIVE_INFINITY,
  ];
  let remaining = [...candidates];
  for (const score of criteria) {
    let best = Number.NEGATIVE_INFINITY;
    let selected: Candidate[] = [];
    for (const c of remaining) {
      const s = score(c);
      if (s > best) {
        best = s;
        selected = [c];
      } else if (s === best) selected.push(c);
    }
    if (selected.length === 1) return selected[0];
    if (selected.length > 0) remaining = selected;
  }
  return remaining[0];
}
