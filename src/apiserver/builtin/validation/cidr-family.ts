// cidrFamily: whether a CIDR parses as upstream's ParseCIDRSloppy reads it, and its IP family.
import { isIP } from 'node:net';

/** The IP family of a CIDR that parses. */
export function cidrFamily(cidr: string): 4 | 6 | undefined {
  const [ip, bits, extra] = cidr.split('/');
  if (extra !== undefined || ip === undefined || bits === undefined || !/^\d+$/.test(bits)) return undefined;
  const family = isIP(ip);
  if (family === 0 || Number(bits) > (family === 4 ? 32 : 128)) return undefined;
  return family as 4 | 6;
}
