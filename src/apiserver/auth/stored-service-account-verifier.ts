// Verifies service-account tokens with the server's key and checks their account (and pod) still exist.
import type { KubeObject } from '../../../operators/types.ts';
import { type ServiceAccountKeys, verifyServiceAccountToken } from '../builtin/service-account-token.ts';
import type { ObjectStore } from '../object-store.ts';
import type { ServiceAccountTokenVerifier } from './service-account-authenticator.ts';

/**
 * A verifier over the server's signing key and store: the token's signature, issuer, audience and
 * lifetime must check out, and the service account it names (and the pod it is bound to, if any)
 * must still exist with the uid the token carries, as upstream's service-account authenticator
 * validates bound tokens.
 * @param keys the server's keys (read on each call, so the registry may create them lazily)
 * @param store the object store
 * @param now the clock, milliseconds since the epoch
 */
export function storedServiceAccountVerifier(
  keys: () => ServiceAccountKeys,
  store: ObjectStore,
  now: () => number = Date.now,
): ServiceAccountTokenVerifier {
  const uidOf = (resource: string, key: string) =>
    (store.get(resource, key)?.object as KubeObject | undefined)?.metadata?.uid;
  return async (token) => {
    const verified = await verifyServiceAccountToken(keys(), token, { now: Math.floor(now() / 1000) });
    if (!verified.ok) return undefined;
    const { namespace, serviceAccount, pod } = verified.subject;
    if (uidOf('serviceaccounts', `${namespace}/${serviceAccount.name}`) !== serviceAccount.uid)
      return undefined;
    if (pod && uidOf('pods', `${namespace}/${pod.name}`) !== pod.uid) return undefined;
    return { namespace, name: serviceAccount.name, uid: serviceAccount.uid };
  };
}
