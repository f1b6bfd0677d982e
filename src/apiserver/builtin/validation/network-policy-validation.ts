// validateNetworkPolicy: a networking.k8s.io/v1 NetworkPolicy as upstream's ValidateNetworkPolicySpec checks it (selectors, ports, peers, ipBlocks, policy types).
import type { KubeObject } from '../../../../operators/types.ts';
import type { StatusCause } from '../../api-status.ts';
import { cidrFamily } from './cidr-family.ts';
import { fieldError } from './field-error.ts';
import { formatErrors } from './format-rules.ts';
import { type Obj, shape } from './json-shape.ts';
import { validateLabelSelector } from './label-selector-validation.ts';

const PROTOCOLS = ['TCP', 'UDP', 'SCTP'];
const POLICY_TYPES = ['Ingress', 'Egress'];
const CIDR_EXAMPLE = 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)';

const present = (value: unknown) => value !== undefined && value !== null;

function portCauses(port: Obj, at: string): StatusCause[] {
  const out: StatusCause[] = [];
  if (present(port.protocol) && !PROTOCOLS.includes(shape.text(port.protocol)))
    out.push(fieldError.notSupported(`${at}.protocol`, port.protocol, PROTOCOLS));
  const end = port.endPort;
  if (typeof port.port === 'number') {
    out.push(
      ...formatErrors.portNumber(port.port).map((m) => fieldError.invalid(`${at}.port`, port.port, m)),
    );
    if (typeof end === 'number') {
      if (end < port.port)
        out.push(fieldError.invalid(`${at}.endPort`, port.port, 'must be greater than or equal to `port`'));
      out.push(...formatErrors.portNumber(end).map((m) => fieldError.invalid(`${at}.endPort`, end, m)));
    }
  } else if (present(port.port)) {
    if (present(end))
      out.push(fieldError.invalid(`${at}.endPort`, end, 'may not be specified when `port` is non-numeric'));
    const name = shape.text(port.port);
    out.push(...formatErrors.portName(name).map((m) => fieldError.invalid(`${at}.port`, name, m)));
  } else if (present(end))
    out.push(fieldError.invalid(`${at}.endPort`, end, 'may not be specified when `port` is not specified'));
  return out;
}

/** The network address of a CIDR as a bigint, with its prefix length and family. */
function parseCidr(cidr: string): { base: bigint; bits: number; family: 4 | 6 } | undefined {
  const family = cidrFamily(cidr);
  if (!family) return undefined;
  const [ip = '', bits = ''] = cidr.split('/');
  let value = 0n;
  if (family === 4) for (const octet of ip.split('.')) value = (value << 8n) | BigInt(Number(octet));
  else {
    const [head = '', tail = ''] = ip.includes('::') ? ip.split('::') : [ip, ''];
    const h = head ? head.split(':') : [];
    const t = tail ? tail.split(':') : [];
    const groups = ip.includes('::') ? [...h, ...Array(8 - h.length - t.length).fill('0'), ...t] : h;
    for (const g of groups) value = (value << 16n) | BigInt(Number.parseInt(g, 16) || 0);
  }
  const width = family === 4 ? 32 : 128;
  const prefix = Number(bits);
  const mask = ((1n << BigInt(prefix)) - 1n) << BigInt(width - prefix);
  return { base: value & mask, bits: prefix, family };
}

function ipBlockCauses(block: Obj, at: string): StatusCause[] {
  const cidr = shape.str(block.cidr) ?? '';
  if (cidr === '') return [fieldError.required(`${at}.cidr`)];
  const outer = parseCidr(cidr);
  if (!outer) return [fieldError.invalid(`${at}.cidr`, cidr, CIDR_EXAMPLE)];
  const out: StatusCause[] = [];
  (Array.isArray(block.except) ? block.except : []).forEach((e, i) => {
    const text = shape.text(e);
    const inner = parseCidr(text);
    if (!inner) {
      out.push(fieldError.invalid(`${at}.except[${i}]`, text, CIDR_EXAMPLE));
      return;
    }
    const width = outer.family === 4 ? 32 : 128;
    const outerMask = ((1n << BigInt(outer.bits)) - 1n) << BigInt(width - outer.bits);
    const contained = inner.family === outer.family && (inner.base & outerMask) === outer.base;
    if (!contained || outer.bits >= inner.bits)
      out.push(fieldError.invalid(`${at}.except[${i}]`, text, 'must be a strict subset of `cidr`'));
  });
  return out;
}

function peerCauses(peer: Obj, at: string): StatusCause[] {
  const out: StatusCause[] = [];
  let count = 0;
  for (const selector of ['podSelector', 'namespaceSelector'] as const)
    if (present(peer[selector])) {
      count++;
      out.push(...validateLabelSelector(peer[selector], `${at}.${selector}`));
    }
  if (present(peer.ipBlock)) {
    count++;
    out.push(...ipBlockCauses(shape.obj(peer.ipBlock), `${at}.ipBlock`));
  }
  if (count === 0) out.push(fieldError.required(at, 'must specify a peer'));
  else if (count > 1 && present(peer.ipBlock))
    out.push(fieldError.forbidden(at, 'may not specify both ipBlock and another peer'));
  return out;
}

/**
 * A NetworkPolicy: its podSelector; each ingress and egress rule's ports (TCP, UDP or SCTP; a port
 * number, or a name without endPort; endPort ≥ port) and peers (exactly one kind when ipBlock is one of
 * them; an ipBlock's cidr parses and each except is a strict subset of it); at most two policy types,
 * Ingress or Egress.
 * @param policy the NetworkPolicy about to be stored
 * @returns the causes, empty when valid
 */
export function validateNetworkPolicy(policy: KubeObject): StatusCause[] {
  const spec = shape.obj((policy as Obj).spec);
  const out = validateLabelSelector(spec.podSelector, 'spec.podSelector');
  shape.list(spec.ingress).forEach((rule, i) => {
    const at = `spec.ingress[${i}]`;
    shape.list(rule.ports).forEach((p, j) => {
      out.push(...portCauses(shape.obj(p), `${at}.ports[${j}]`));
    });
    shape.list(rule.from).forEach((p, j) => {
      out.push(...peerCauses(shape.obj(p), `${at}.from[${j}]`));
    });
  });
  shape.list(spec.egress).forEach((rule, i) => {
    const at = `spec.egress[${i}]`;
    shape.list(rule.to).forEach((p, j) => {
      out.push(...peerCauses(shape.obj(p), `${at}.to[${j}]`));
    });
    shape.list(rule.ports).forEach((p, j) => {
      out.push(...portCauses(shape.obj(p), `${at}.ports[${j}]`));
    });
  });
  const types = Array.isArray(spec.policyTypes) ? (spec.policyTypes as unknown[]) : [];
  if (types.length > 2) {
    out.push(fieldError.invalid('spec.policyTypes', types, 'may not specify more than two policyTypes'));
    return out;
  }
  types.forEach((t, i) => {
    if (!POLICY_TYPES.includes(shape.text(t)))
      out.push(fieldError.notSupported(`spec.policyTypes[${i}]`, t, POLICY_TYPES));
  });
  return out;
}
