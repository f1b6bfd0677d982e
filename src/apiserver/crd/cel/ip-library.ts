// Kubernetes' CEL IP and CIDR library: ip(), isIP(), cidr(), isCIDR() and what an address or a prefix can tell.
import { type Environment, EvaluationError } from '@marcbachmann/cel-js';

/** An IP address as a CEL value: its family and its bits. */
export class IpAddress {
  readonly family: 4 | 6;
  readonly bits: bigint;
  constructor(family: 4 | 6, bits: bigint) {
    this.family = family;
    this.bits = bits;
  }
  get width(): bigint {
    return this.family === 4 ? 32n : 128n;
  }
  /** The first `n` bits, as a number of the address's width. */
  top(n: bigint): bigint {
    return this.bits >> (this.width - n);
  }
}

/** A CIDR prefix as a CEL value: an address and a prefix length. */
export class IpPrefix {
  readonly address: IpAddress;
  readonly length: bigint;
  constructor(address: IpAddress, length: bigint) {
    this.address = address;
    this.length = length;
  }
  masked(): IpPrefix {
    const shift = this.address.width - this.length;
    return new IpPrefix(
      new IpAddress(this.address.family, (this.address.bits >> shift) << shift),
      this.length,
    );
  }
  contains(a: IpAddress): boolean {
    return a.family === this.address.family && a.top(this.length) === this.address.top(this.length);
  }
}

function parse4(text: string): bigint | undefined {
  const parts = text.split('.');
  if (parts.length !== 4 || parts.some((p) => !/^(0|[1-9]\d{0,2})$/.test(p) || Number(p) > 255))
    return undefined;
  return parts.reduce((acc, p) => (acc << 8n) | BigInt(p), 0n);
}

function parse6(input: string): bigint | undefined {
  let text = input;
  const lastColon = text.lastIndexOf(':');
  if (text.slice(lastColon + 1).includes('.')) {
    const v4 = parse4(text.slice(lastColon + 1));
    if (v4 === undefined) return undefined;
    text = `${text.slice(0, lastColon + 1)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const words = (part: string) => (part ? part.split(':') : []);
  const left = words(halves[0]!);
  const right = halves.length === 2 ? words(halves[1]!) : [];
  const fill = 8 - left.length - right.length;
  if (halves.length === 2 ? fill < 1 : fill !== 0) return undefined;
  const all = [...left, ...Array<string>(halves.length === 2 ? fill : 0).fill('0'), ...right];
  if (!all.every((g) => /^[0-9a-fA-F]{1,4}$/.test(g))) return undefined;
  return all.reduce((acc, g) => (acc << 16n) | BigInt(`0x${g}`), 0n);
}

/** An address as Go's netip parses it, refusing zones and IPv4-mapped IPv6 addresses as Kubernetes does; or why not. */
function parseAddress(text: string): IpAddress | string {
  if (text.includes('%')) return 'IP address with zone value is not allowed';
  const v4 = parse4(text);
  if (v4 !== undefined) return new IpAddress(4, v4);
  const v6 = text.includes(':') ? parse6(text) : undefined;
  if (v6 === undefined) return `ParseAddr(${JSON.stringify(text)}): unable to parse IP`;
  if (v6 >> 32n === 0xffffn) return 'IPv4-mapped IPv6 address is not allowed';
  return new IpAddress(6, v6);
}

function parsePrefix(text: string): IpPrefix | string {
  const slash = text.lastIndexOf('/');
  const bits = text.slice(slash + 1);
  const address = slash < 0 ? `no '/'` : parseAddress(text.slice(0, slash));
  if (typeof address === 'string') return `netip.ParsePrefix(${JSON.stringify(text)}): ${address}`;
  if (!/^(0|[1-9]\d*)$/.test(bits) || BigInt(bits) > address.width)
    return `netip.ParsePrefix(${JSON.stringify(text)}): bad bits after slash: ${JSON.stringify(bits)}`;
  return new IpPrefix(address, BigInt(bits));
}

/** Go's String(): dotted IPv4; IPv6 in RFC 5952 form (lower case, the longest run of zero groups as ::). */
function addressText(a: IpAddress): string {
  if (a.family === 4) return [24n, 16n, 8n, 0n].map((s) => String((a.bits >> s) & 0xffn)).join('.');
  const words = Array.from({ length: 8 }, (_, i) => (a.bits >> BigInt(112 - 16 * i)) & 0xffffn);
  let best = -1;
  let bestLength = 1;
  for (let i = 0; i < 8; ) {
    let j = i;
    while (j < 8 && words[j] === 0n) j++;
    if (j - i > bestLength) [best, bestLength] = [i, j - i];
    i = j === i ? i + 1 : j;
  }
  const hex = (ws: bigint[]) => ws.map((w) => w.toString(16)).join(':');
  if (best < 0) return hex(words);
  return `${hex(words.slice(0, best))}::${hex(words.slice(best + bestLength))}`;
}

function address(text: string): IpAddress {
  const a = parseAddress(text);
  if (typeof a === 'string')
    throw new EvaluationError(
      `IP Address ${JSON.stringify(text)} parse error during conversion from string: ${a}`,
    );
  return a;
}

function prefix(text: string): IpPrefix {
  const p = parsePrefix(text);
  if (typeof p === 'string')
    throw new EvaluationError(`network address parse error during conversion from string: ${p}`);
  return p;
}

const multicast = (a: IpAddress) => (a.family === 4 ? a.top(4n) === 0xen : a.top(8n) === 0xffn);
const loopback = (a: IpAddress) => (a.family === 4 ? a.top(8n) === 127n : a.bits === 1n);
const linkLocalUnicast = (a: IpAddress) => (a.family === 4 ? a.top(16n) === 0xa9fen : a.top(10n) === 0x3fan);

/**
 * Registers the IP and CIDR functions of k8s.io/apiserver/pkg/cel/library (ip.go, cidr.go):
 * `isIP(s)`, `ip(s)`, and on an IP `family()`, `isUnspecified()`, `isLoopback()`,
 * `isLinkLocalMulticast()`, `isLinkLocalUnicast()`, `isGlobalUnicast()`, `string(ip)`; `isCIDR(s)`,
 * `cidr(s)`, and on a CIDR `containsIP(ip|s)`, `containsCIDR(cidr|s)`, `ip()`, `masked()`,
 * `prefixLength()`, `string(cidr)`. Zones and IPv4-mapped IPv6 addresses are refused, as upstream.
 * `ip.isCanonical` is not there: the evaluator has no namespaced functions.
 * @param env the environment (not yet cloned)
 */
export function registerIpLibrary(env: Environment): void {
  env.registerType('net.IP', IpAddress);
  env.registerType('net.CIDR', IpPrefix);
  env
    .registerFunction('isIP(string): bool', (s: string) => typeof parseAddress(s) !== 'string')
    .registerFunction('ip(string): net.IP', address)
    .registerFunction('string(net.IP): string', addressText)
    .registerFunction('net.IP.family(): int', (a: IpAddress) => BigInt(a.family))
    .registerFunction('net.IP.isUnspecified(): bool', (a: IpAddress) => a.bits === 0n)
    .registerFunction('net.IP.isLoopback(): bool', loopback)
    .registerFunction('net.IP.isLinkLocalMulticast(): bool', (a: IpAddress) =>
      a.family === 4 ? a.top(24n) === 0xe00000n : a.top(16n) === 0xff02n,
    )
    .registerFunction('net.IP.isLinkLocalUnicast(): bool', linkLocalUnicast)
    .registerFunction(
      'net.IP.isGlobalUnicast(): bool',
      (a: IpAddress) =>
        a.bits !== 0n &&
        !(a.family === 4 && a.bits === 0xffffffffn) &&
        !loopback(a) &&
        !multicast(a) &&
        !linkLocalUnicast(a),
    )
    .registerOperator(
      'net.IP == net.IP',
      (a: IpAddress, b: IpAddress) => a.family === b.family && a.bits === b.bits,
    )
    .registerFunction('isCIDR(string): bool', (s: string) => typeof parsePrefix(s) !== 'string')
    .registerFunction('cidr(string): net.CIDR', prefix)
    .registerFunction('string(net.CIDR): string', (p: IpPrefix) => `${addressText(p.address)}/${p.length}`)
    .registerFunction('net.CIDR.containsIP(net.IP): bool', (p: IpPrefix, a: IpAddress) => p.contains(a))
    .registerFunction('net.CIDR.containsIP(string): bool', (p: IpPrefix, s: string) => p.contains(address(s)))
    .registerFunction(
      'net.CIDR.containsCIDR(net.CIDR): bool',
      (p: IpPrefix, q: IpPrefix) => q.length >= p.length && p.contains(q.address),
    )
    .registerFunction('net.CIDR.containsCIDR(string): bool', (p: IpPrefix, s: string) => {
      const q = prefix(s);
      return q.length >= p.length && p.contains(q.address);
    })
    .registerFunction('net.CIDR.ip(): net.IP', (p: IpPrefix) => p.address)
    .registerFunction('net.CIDR.masked(): net.CIDR', (p: IpPrefix) => p.masked())
    .registerFunction('net.CIDR.prefixLength(): int', (p: IpPrefix) => p.length)
    .registerOperator(
      'net.CIDR == net.CIDR',
      (a: IpPrefix, b: IpPrefix) =>
        a.length === b.length && a.address.family === b.address.family && a.address.bits === b.address.bits,
    );
}
