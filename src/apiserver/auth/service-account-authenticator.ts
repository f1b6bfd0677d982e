// Service-account tokens: JWTs signed by the server's key name system:serviceaccount:<ns>:<name>.
import { type Authenticator, bearerToken, type UserInfo } from './user-info.ts';

/** What a verified service-account token says about its account. */
export interface ServiceAccountClaims {
  namespace: string;
  name: string;
  uid?: string;
}

/** Verifies a token's signature and expiry; answers the account or undefined when it is not valid. */
export type ServiceAccountTokenVerifier = (
  token: string,
) => ServiceAccountClaims | undefined | Promise<ServiceAccountClaims | undefined>;

/** The user name of a service account, as upstream's serviceaccount.MakeUsername. */
export function serviceAccountUsername(namespace: string, name: string): string {
  return `system:serviceaccount:${namespace}:${name}`;
}

/** The user of a service account: its name and the two service-account groups. */
export function serviceAccountUser(claims: ServiceAccountClaims): UserInfo {
  return {
    username: serviceAccountUsername(claims.namespace, claims.name),
    ...(claims.uid ? { uid: claims.uid } : {}),
    groups: ['system:serviceaccounts', `system:serviceaccounts:${claims.namespace}`],
  };
}

/** True when the text has a JWT's three dot-separated parts. */
function looksLikeJwt(token: string): boolean {
  return /^[\w-]+\.[\w-]+\.[\w-]*$/.test(token);
}

/**
 * Authenticates bearer tokens that are service-account JWTs. A token that is not a JWT is left to
 * other authenticators; a JWT that fails verification authenticates nobody (401 unless another
 * authenticator knows it).
 * @param verify the server's token verifier
 */
export function serviceAccountAuthenticator(verify: ServiceAccountTokenVerifier): Authenticator {
  return async (req) => {
    const token = bearerToken(req);
    if (token === undefined || !looksLikeJwt(token)) return undefined;
    const claims = await verify(token);
    return claims ? serviceAccountUser(claims) : undefined;
  };
}
