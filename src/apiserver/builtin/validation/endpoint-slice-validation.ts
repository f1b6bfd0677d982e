// validateEndpointSlice: a discovery.k8s.io/v1 EndpointSlice as upstream's ValidateEndpointSlice(Create|Update) checks it (address type, addresses by type, ports).
import { isIPv4, isIPv6 } from 'node:net';
import type { KubeObject } from '../../../../operators/types.ts';
import type { StatusCause } from '../../api-status.ts';
import { fieldError } from './field-error.ts';
import { formatErrors } from './format-rules.ts';
import { type Obj, shape } from './json-shape.ts';
import { validateLabels } from './labels-validation.ts';

const ADDRESS_TYPES = ['FQDN', 'IPv4', 'IPv6'];
const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const MAX_ENDPOINTS = 1000;
const MAX_ADDRESSES = 100;
const MAX_PORTS = 20000;
const MAX_TOPOLOGY_LABELS = 16;

/** ValidateNonSpecialIP: not unspecified, loopback or link-local. */
function specialIpErrors(ip: string): string[] {
  const v4 = isIPv4(ip);
  const lower = ip.toLowerCase();
  if (v4 ? ip === '0.0.0.0' : /^[0:]+$/.test(lower)) return [`may not be unspecified (${ip})`];
  if (v4 ? ip.startsWith('127.') : lower === '::1' || /^(0+:){7}0*1$/.test(lower))
    return ['may not be in the loopback range (127.0.0.0/8, ::1/128)'];
  if (v4 ? ip.startsWith('169.254.') : /^fe[89ab]/.test(lower))
    return ['may not be in the link-local range (169.254.0.0/16, fe80::/10)'];
  if (v4 ? ip.startsWith('224.0.0.') : lower.startsWith('ff02:'))
    return ['may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)'];
  return [];
}

/** IsFullyQualifiedDomainName: a subdomain of at least two labels. */
function fqdnCauses(value: string, field: string): StatusCause[] {
  if (value === '') return [fieldError.required(field)];
  const name = value.replace(/\.$/, '');
  const errors = formatErrors.dns1123Subdomain(name);
  if (errors.length > 0) return [fieldError.invalid(field, name, errors.join(','))];
  const labels = name.split('.');
  if (labels.length < 2)
    return [
      fieldError.invalid(field, name, 'should be a domain with at least two segments separated by dots'),
    ];
  for (const label of labels) {
    const labelErrors = formatErrors.dns1123Label(label);
    if (labelErrors.length > 0) return [fieldError.invalid(field, label, labelErrors.join(','))];
  }
  return [];
}

function addressCauses(address: string, type: string, field: string): StatusCause[] {
  if (type === 'IPv4')
    return isIPv4(address)
      ? specialIpErrors(address).map((m) => fieldError.invalid(field, address, m))
      : [fieldError.invalid(field, address, 'must be a valid IPv4 address')];
  if (type === 'IPv6')
    return isIPv6(address)
      ? specialIpErrors(address).map((m) => fieldError.invalid(field, address, m))
      : [fieldError.invalid(field, address, 'must be a valid IPv6 address')];
  return type === 'FQDN' ? fqdnCauses(address, field) : [];
}

function endpointsCauses(endpoints: Obj[], type: string): StatusCause[] {
  if (endpoints.length > MAX_ENDPOINTS)
    return [fieldError.tooMany('endpoints', endpoints.length, MAX_ENDPOINTS)];
  return endpoints.flatMap((endpoint, i) => {
    const at = `endpoints[${i}]`;
    const out: StatusCause[] = [];
    const addresses = (Array.isArray(endpoint.addresses) ? endpoint.addresses : []).map((a) => shape.text(a));
    if (addresses.length === 0)
      out.push(fieldError.required(`${at}.addresses`, 'must contain at least 1 address'));
    else if (addresses.length > MAX_ADDRESSES)
      out.push(fieldError.tooMany(`${at}.addresses`, addresses.length, MAX_ADDRESSES));
    addresses.forEach((a, j) => {
      out.push(...addressCauses(a, type, `${at}.addresses[${j}]`));
    });
    const nodeName = shape.str(endpoint.nodeName);
    if (nodeName !== undefined)
      out.push(
        ...formatErrors
          .dns1123Subdomain(nodeName)
          .map((m) => fieldError.invalid(`${at}.nodeName`, nodeName, m)),
      );
    const topology = shape.obj(endpoint.deprecatedTopology);
    if (Object.keys(topology).length > MAX_TOPOLOGY_LABELS)
      out.push(
        fieldError.tooMany(`${at}.deprecatedTopology`, Object.keys(topology).length, MAX_TOPOLOGY_LABELS),
      );
    out.push(...validateLabels(topology, `${at}.deprecatedTopology`));
    const hostname = shape.str(endpoint.hostname);
    if (hostname !== undefined)
      out.push(
        ...formatErrors.dns1123Label(hostname).map((m) => fieldError.invalid(`${at}.hostname`, hostname, m)),
      );
    return out;
  });
}

function portsCauses(ports: Obj[]): StatusCause[] {
  if (ports.length > MAX_PORTS) return [fieldError.tooMany('ports', ports.length, MAX_PORTS)];
  const names = new Set<string>();
  return ports.flatMap((port, i) => {
    const at = `ports[${i}]`;
    const out: StatusCause[] = [];
    const name = shape.text(port.name);
    if (name !== '')
      out.push(...formatErrors.dns1123Label(name).map((m) => fieldError.invalid(`${at}.name`, name, m)));
    if (names.has(name)) out.push(fieldError.duplicate(`${at}.name`, name));
    names.add(name);
    const protocol = shape.text(shape.defaulted(port.protocol, 'TCP'));
    if (!PROTOCOLS.includes(protocol))
      out.push(fieldError.notSupported(`${at}.protocol`, protocol, PROTOCOLS));
    const appProtocol = shape.str(port.appProtocol);
    if (appProtocol !== undefined)
      out.push(
        ...formatErrors
          .qualifiedName(appProtocol)
          .map((m) => fieldError.invalid(`${at}.appProtocol`, appProtocol, m)),
      );
    return out;
  });
}

/**
 * An EndpointSlice: a known addressType (IPv4, IPv6 or FQDN) that never changes; at most 1000
 * endpoints, each with 1..100 addresses valid for that type (no unspecified, loopback or link-local
 * IP), a DNS-subdomain nodeName, a DNS-label hostname, at most 16 deprecated topology labels; at most
 * 20000 ports with unique DNS-label names, TCP, UDP or SCTP, and a qualified appProtocol.
 * @param slice the EndpointSlice about to be stored
 * @param old the stored one, on updates
 * @returns the causes, empty when valid
 */
export function validateEndpointSlice(slice: KubeObject, old?: KubeObject): StatusCause[] {
  const o = slice as Obj;
  const type = shape.text(o.addressType);
  const out = [...endpointsCauses(shape.list(o.endpoints), type), ...portsCauses(shape.list(o.ports))];
  if (old) {
    const before = shape.text((old as Obj).addressType);
    if (before !== type) out.push(fieldError.invalid('addressType', type, 'field is immutable'));
  } else if (type === '') out.push(fieldError.required('addressType'));
  else if (!ADDRESS_TYPES.includes(type))
    out.push(fieldError.notSupported('addressType', type, ADDRESS_TYPES));
  return out;
}
