// Client certificates signed by the server CA: the subject's CN is the user, each O a group.
import type { TLSSocket } from 'node:tls';
import type { Authenticator } from './user-info.ts';

/** The extended key usage OID of TLS client authentication. */
const CLIENT_AUTH_OID = '1.3.6.1.5.5.7.3.2';

/** A subject field that Node gives as one string or, when repeated, as an array. */
function values(field: string | string[] | undefined): string[] {
  if (field === undefined) return [];
  return Array.isArray(field) ? field : [field];
}

/**
 * Authenticates requests over TLS whose client certificate chains to the server CA (the HTTPS
 * server asks for one with `requestCert` and leaves verification here). A certificate that does not
 * chain to the CA, has no CN, or is not meant for client authentication is invalid.
 */
export function x509Authenticator(): Authenticator {
  return (req) => {
    const socket = req.socket as Partial<TLSSocket>;
    if (typeof socket.getPeerCertificate !== 'function') return undefined;
    const cert = socket.getPeerCertificate();
    if (!cert || Object.keys(cert).length === 0) return undefined;
    if (!socket.authorized) return 'invalid';
    const usages = cert.ext_key_usage;
    if (usages && !usages.includes(CLIENT_AUTH_OID)) return 'invalid';
    const [username] = values(cert.subject?.CN);
    if (!username) return 'invalid';
    return { username, groups: values(cert.subject?.O) };
  };
}
