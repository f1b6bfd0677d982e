// validateIngress: a networking.k8s.io/v1 Ingress as upstream's ValidateIngressSpec checks it (hosts, paths and path types, backends, TLS hosts).
import { isIP } from 'node:net';
import type { KubeObject } from '../../../../operators/types.ts';
import type { StatusCause } from '../../api-status.ts';
import { fieldError } from './field-error.ts';
import { formatErrors } from './format-rules.ts';
import { type Obj, shape } from './json-shape.ts';
import { validateTypedObjectReference } from './typed-object-reference-validation.ts';

const PATH_TYPES = ['Exact', 'ImplementationSpecific', 'Prefix'];
const INVALID_SEQUENCES = ['//', '/./', '/../', '%2f', '%2F'];
const INVALID_SUFFIXES = ['/..', '/.'];

const present = (value: unknown) => value !== undefined && value !== null;

/** A host with or without a leading wildcard label. */
function hostErrors(host: string): string[] {
  return host.includes('*')
    ? formatErrors.wildcardDns1123Subdomain(host)
    : formatErrors.dns1123Subdomain(host);
}

function backendCauses(backend: Obj, path: string): StatusCause[] {
  const resource = present(backend.resource);
  const service = present(backend.service);
  if (resource && service)
    return [fieldError.invalid(path, '', 'cannot set both resource and service backends')];
  if (resource) return validateTypedObjectReference(shape.obj(backend.resource), `${path}.resource`);
  if (!service) return [fieldError.invalid(path, '', 'resource or service backend is required')];
  const out: StatusCause[] = [];
  const s = shape.obj(backend.service);
  const name = shape.str(s.name) ?? '';
  if (name === '') out.push(fieldError.required(`${path}.service.name`));
  else
    out.push(
      ...formatErrors.dns1035Label(name).map((m) => fieldError.invalid(`${path}.service.name`, name, m)),
    );
  const port = shape.obj(s.port);
  const portName = shape.str(port.name) ?? '';
  const number = shape.num(port.number) ?? 0;
  if (portName !== '' && number !== 0)
    out.push(fieldError.invalid(path, '', 'cannot set both port name & port number'));
  else if (portName !== '')
    out.push(
      ...formatErrors
        .portName(portName)
        .map((m) => fieldError.invalid(`${path}.service.port.name`, portName, m)),
    );
  else if (number !== 0)
    out.push(
      ...formatErrors
        .portNumber(number)
        .map((m) => fieldError.invalid(`${path}.service.port.number`, number, m)),
    );
  else out.push(fieldError.required(path, 'port name or number is required'));
  return out;
}

function pathCauses(p: Obj, at: string): StatusCause[] {
  if (!present(p.pathType)) return [fieldError.required(`${at}.pathType`, 'pathType must be specified')];
  const out: StatusCause[] = [];
  const path = shape.text(p.path);
  const type = shape.text(p.pathType);
  if (type === 'Exact' || type === 'Prefix') {
    if (!path.startsWith('/')) out.push(fieldError.invalid(`${at}.path`, path, 'must be an absolute path'));
    for (const sequence of INVALID_SEQUENCES)
      if (path.includes(sequence))
        out.push(fieldError.invalid(`${at}.path`, path, `must not contain '${sequence}'`));
    for (const suffix of INVALID_SUFFIXES)
      if (path.endsWith(suffix))
        out.push(fieldError.invalid(`${at}.path`, path, `cannot end with '${suffix}'`));
  } else if (type === 'ImplementationSpecific') {
    if (path !== '' && !path.startsWith('/'))
      out.push(fieldError.invalid(`${at}.path`, path, 'must be an absolute path'));
  } else out.push(fieldError.notSupported(`${at}.pathType`, p.pathType, PATH_TYPES));
  return [...out, ...backendCauses(shape.obj(p.backend), `${at}.backend`)];
}

function ruleCauses(rule: Obj, at: string): StatusCause[] {
  const out: StatusCause[] = [];
  const host = shape.str(rule.host) ?? '';
  if (host !== '') {
    if (isIP(host) !== 0)
      out.push(fieldError.invalid(`${at}.host`, host, 'must be a DNS name, not an IP address'));
    out.push(...hostErrors(host).map((m) => fieldError.invalid(`${at}.host`, host, m)));
  }
  if (present(rule.http)) {
    const paths = shape.list(shape.obj(rule.http).paths);
    if (paths.length === 0) out.push(fieldError.required(`${at}.http.paths`));
    paths.forEach((p, j) => {
      out.push(...pathCauses(shape.obj(p), `${at}.http.paths[${j}]`));
    });
  }
  return out;
}

function tlsCauses(tls: Obj[]): StatusCause[] {
  return tls.flatMap((t, i) => {
    const out: StatusCause[] = [];
    (Array.isArray(t.hosts) ? t.hosts : []).forEach((h, j) => {
      const host = shape.text(h);
      out.push(...hostErrors(host).map((m) => fieldError.invalid(`spec.tls[${i}].hosts[${j}]`, host, m)));
    });
    const secret = shape.str(t.secretName) ?? '';
    if (secret !== '')
      out.push(
        ...formatErrors
          .dns1123Subdomain(secret)
          .map((m) => fieldError.invalid(`spec.tls[${i}].secretName`, secret, m)),
      );
    return out;
  });
}

/**
 * An Ingress: rules or a default backend; each rule's host a DNS name (not an IP), a `*.` wildcard
 * allowed; HTTP paths with a path type, absolute and free of `//`, `/./`, `/../`, `%2f` and a trailing
 * `/.` or `/..` for Exact and Prefix; each backend a service (DNS-1035 name, a port name xor number) or
 * a resource, not both; TLS hosts as rule hosts and secret names as DNS subdomains; a DNS-subdomain
 * ingressClassName. Updates are checked the same way (nothing is immutable).
 * @param ingress the Ingress about to be stored
 * @returns the causes, empty when valid
 */
export function validateIngress(ingress: KubeObject): StatusCause[] {
  const spec = shape.obj((ingress as Obj).spec);
  const out: StatusCause[] = [];
  const rules = shape.list(spec.rules);
  if (rules.length === 0 && !present(spec.defaultBackend))
    out.push(
      fieldError.invalidPrinted(
        'spec',
        '[]networking.IngressRule(nil)',
        'either `defaultBackend` or `rules` must be specified',
      ),
    );
  if (present(spec.defaultBackend))
    out.push(...backendCauses(shape.obj(spec.defaultBackend), 'spec.defaultBackend'));
  rules.forEach((rule, i) => {
    out.push(...ruleCauses(shape.obj(rule), `spec.rules[${i}]`));
  });
  out.push(...tlsCauses(shape.list(spec.tls)));
  const className = shape.str(spec.ingressClassName);
  if (className !== undefined)
    out.push(
      ...formatErrors
        .dns1123Subdomain(className)
        .map((m) => fieldError.invalid('spec.ingressClassName', className, m)),
    );
  return out;
}
