// Completion-index interval strings ("0-2,4,6"), as an Indexed Job's status.completedIndexes and failedIndexes write them.
/**
 * Formats a set of indexes as upstream does: sorted, comma separated, runs of three or more as `a-b`,
 * a run of two as `a,b`. An empty set is `""`.
 *
 * @example formatIndexes([0, 1, 2, 4, 6]) // "0-2,4,6"
 */
export function formatIndexes(indexes: Iterable<number>): string {
  const sorted = [...new Set(indexes)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === (sorted[j] as number) + 1) j++;
    const first = sorted[i] as number;
    const last = sorted[j] as number;
    if (j - i >= 2) parts.push(`${first}-${last}`);
    else for (let k = i; k <= j; k++) parts.push(String(sorted[k]));
    i = j + 1;
  }
  return parts.join(',');
}

/**
 * Parses an interval string, dropping indexes ≥ `completions` (ranges are clamped), as upstream's
 * parseIndexesFromString does; a malformed entry is skipped (upstream logs it and carries on, since the
 * string comes from the job's own status).
 *
 * @param text the string (`""` and undefined are empty)
 * @param completions the job's completions
 */
export function parseIndexes(text: string | undefined, completions: number): Set<number> {
  const out = new Set<number>();
  if (!text) return out;
  for (const part of text.split(',')) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part.trim());
    if (!m) continue;
    const from = Number(m[1]);
    const to = Math.min(m[2] === undefined ? from : Number(m[2]), completions - 1);
    for (let i = from; i <= to; i++) out.add(i);
  }
  return out;
}
