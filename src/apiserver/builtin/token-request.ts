// POST serviceaccounts/NAME/token: a TokenRequest answered with a signed token, as kube-apiserver's TokenREST does.
import type { KubeObject } from '../../../operators/types.ts';
import { badRequest, conflict, invalid, notFound } from '../api-status.ts';
import { type ServiceAccountKeys, signServiceAccountToken } from './service-account-token.ts';

type Obj = Record<string, unknown>;

/** Upstream's default and bounds of spec.expirationSeconds. */
export const DEFAULT_TOKEN_SECONDS = 3600;
const MIN_TOKEN_SECONDS = 600;
const MAX_TOKEN_SECONDS = 2 ** 32;

function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * Signs a token for `serviceAccount` as the TokenRequest `body` asks.
 * @param lookup finds the bound object (`Pod`, `Secret` or `Node`) by kind, namespace and name
 * @param now seconds since the epoch
 * @throws 400 on a body that is not a TokenRequest, 422 naming the field, 404/409 on a bound object that is missing or changed
 */
export async function createTokenRequest(
  keys: ServiceAccountKeys,
  serviceAccount: KubeObject,
  body: unknown,
  lookup: (kind: string, namespace: string | undefined, name: string) => KubeObject | undefined,
  now: number,
): Promise<KubeObject> {
  if (!isObj(body)) throw badRequest('the body of the request is not a TokenRequest object');
  if (body.kind !== undefined && body.kind !== 'TokenRequest')
    throw badRequest(
      `kind: the kind in the data (${String(body.kind)}) does not match the expected kind (TokenRequest)`,
    );
  const name = String(serviceAccount.metadata?.name);
  const namespace = String(serviceAccount.metadata?.namespace);
  const spec = isObj(body.spec) ? body.spec : {};
  const seconds = spec.expirationSeconds ?? DEFAULT_TOKEN_SECONDS;
  const target = { group: 'authentication.k8s.io', kind: 'TokenRequest', name };
  if (typeof seconds !== 'number' || !Number.isInteger(seconds) || seconds < MIN_TOKEN_SECONDS)
    throw invalid(target, [
      {
        type: 'FieldValueInvalid',
        message: 'may not specify a duration less than 10 minutes',
        field: 'spec.expirationSeconds',
      },
    ]);
  if (seconds > MAX_TOKEN_SECONDS)
    throw invalid(target, [
      {
        type: 'FieldValueTooLong',
        message: 'may not specify a duration larger than 2^32 seconds',
        field: 'spec.expirationSeconds',
      },
    ]);
  const audiences =
    Array.isArray(spec.audiences) && spec.audiences.length ? spec.audiences.map(String) : [keys.issuer];
  let boundObject: { kind: 'Pod' | 'Secret' | 'Node'; name: string; uid: string } | undefined;
  const ref = isObj(spec.boundObjectRef) ? spec.boundObjectRef : undefined;
  if (ref) {
    const kind = String(ref.kind ?? '');
    if (kind !== 'Pod' && kind !== 'Secret' && kind !== 'Node')
      throw badRequest(`cannot bind token to object of type ${kind}`);
    const object = lookup(kind, kind === 'Node' ? undefined : namespace, String(ref.name ?? ''));
    const plural = `${kind.toLowerCase()}s`;
    if (!object) throw notFound({ name: String(ref.name ?? '') }, plural);
    if (ref.uid && ref.uid !== object.metadata?.uid)
      throw conflict(
        { name: String(ref.name) },
        plural,
        `the UID in the bound object reference (${String(ref.uid)}) does not match the UID in record. The object might have been deleted and then recreated`,
      );
    boundObject = { kind, name: String(ref.name), uid: String(object.metadata?.uid) };
  }
  // A token bound to a pod cannot outlive the pod's usefulness beyond its own expiry; upstream also caps it.
  const token = await signServiceAccountToken(keys, {
    namespace,
    name,
    uid: String(serviceAccount.metadata?.uid),
    audiences,
    expirationSeconds: seconds,
    now,
    boundObject,
  });
  return {
    kind: 'TokenRequest',
    apiVersion: 'authentication.k8s.io/v1',
    metadata: {
      name,
      namespace,
      creationTimestamp: new Date(now * 1000).toISOString().replace('.000Z', 'Z'),
    },
    spec: { audiences, expirationSeconds: seconds, boundObjectRef: ref ?? null },
    status: {
      token,
      expirationTimestamp: new Date((now + seconds) * 1000).toISOString().replace('.000Z', 'Z'),
    },
  };
}
