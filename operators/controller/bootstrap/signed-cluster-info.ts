// signedClusterInfo: cluster-info's data with one `jws-kubeconfig-<id>` signature per signing token, stale ones dropped — or undefined when nothing changes.
import { computeDetachedSignature } from './detached-jws.ts';

/** The key prefix of cluster-info's signatures. */
export const JWS_SIGNATURE_KEY_PREFIX = 'jws-kubeconfig-';

/**
 * The bootstrap signer's decision for the cluster-info ConfigMap.
 * @param data the ConfigMap's data
 * @param tokens the signing tokens (id and secret), each id once
 * @returns the new data, or undefined when there is no `kubeconfig` to sign or every signature is already right
 */
export function signedClusterInfo(
  data: Readonly<Record<string, string>> | undefined,
  tokens: readonly { id: string; secret: string }[],
): Record<string, string> | undefined {
  const content = data?.kubeconfig;
  if (content === undefined) return undefined;
  const next: Record<string, string> = {};
  const old = new Map<string, string>();
  for (const [k, v] of Object.entries(data ?? {})) {
    if (k.startsWith(JWS_SIGNATURE_KEY_PREFIX)) old.set(k.slice(JWS_SIGNATURE_KEY_PREFIX.length), v);
    else next[k] = v;
  }
  let changed = false;
  for (const t of tokens) {
    const sig = computeDetachedSignature(content, t.id, t.secret);
    if (old.get(t.id) !== sig) changed = true;
    old.delete(t.id);
    next[JWS_SIGNATURE_KEY_PREFIX + t.id] = sig;
  }
  if (old.size > 0) changed = true;
  return changed ? next : undefined;
}
