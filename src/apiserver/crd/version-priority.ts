// Kubernetes' version ordering (v1 > v1beta2 > v1beta1 > v1alpha1 > anything else), as discovery lists versions.

function parse(version: string): [number, number, number] | undefined {
  const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(version);
  if (!m) return undefined;
  const stability = m[2] === undefined ? 3 : m[2] === 'beta' ? 2 : 1;
  return [stability, Number(m[1]), m[3] === undefined ? 0 : Number(m[3])];
}

/**
 * Compares two version names by kube-aware priority: GA before beta before alpha, higher major
 * first, then higher minor; names outside the pattern come last, alphabetically.
 * @returns negative when `a` comes first
 */
export function compareVersionPriority(a: string, b: string): number {
  const pa = parse(a);
  const pb = parse(b);
  if (pa && pb) {
    if (pa[0] !== pb[0]) return pb[0] - pa[0];
    if (pa[1] !== pb[1]) return pb[1] - pa[1];
    return pb[2] - pa[2];
  }
  if (pa) return -1;
  if (pb) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}
