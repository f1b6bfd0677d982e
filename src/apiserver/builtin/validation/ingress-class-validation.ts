// validateIngressClass: a networking.k8s.io/v1 IngressClass as upstream's ValidateIngressClass(Update) checks it (controller name, parameters).
import type { KubeObject } from '../../../../operators/types.ts';
import type { StatusCause } from '../../api-status.ts';
import { fieldError } from './field-error.ts';
import { formatErrors } from './format-rules.ts';
import { type Obj, shape } from './json-shape.ts';
import { validateTypedObjectReference } from './typed-object-reference-validation.ts';

const MAX_CONTROLLER = 250;
const HTTP_PATH = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";
const SCOPES = ['Cluster', 'Namespace'];

/** IsDomainPrefixedPath: `domain/path`, the domain a DNS subdomain, the path URL characters. */
function domainPrefixedPath(value: string, field: string): StatusCause[] {
  if (value === '') return [fieldError.required(field)];
  const slash = value.indexOf('/');
  const host = slash < 0 ? '' : value.slice(0, slash);
  const path = slash < 0 ? '' : value.slice(slash + 1);
  if (host === '' || path === '')
    return [fieldError.invalid(field, value, 'must be a domain-prefixed path (such as "acme.io/foo")')];
  const out = formatErrors.dns1123Subdomain(host).map((m) => fieldError.invalid(field, host, m));
  if (!new RegExp(`^${HTTP_PATH}$`).test(path))
    out.push(fieldError.invalid(field, path, `Invalid path (regex used for validation is '${HTTP_PATH}')`));
  return out;
}

function parametersCauses(params: Obj): StatusCause[] {
  const path = 'spec.parameters';
  const out = validateTypedObjectReference(params, path);
  const scope = shape.text(shape.defaulted(params.scope, 'Cluster'));
  const namespace = params.namespace;
  if (!SCOPES.includes(scope)) out.push(fieldError.notSupported(`${path}.scope`, scope, SCOPES));
  else if (scope === 'Namespace') {
    if (namespace === undefined || namespace === null)
      out.push(fieldError.required(`${path}.namespace`, "`parameters.scope` is set to 'Namespace'"));
    else {
      const ns = shape.text(namespace);
      out.push(...formatErrors.dns1123Label(ns).map((m) => fieldError.invalid(`${path}.namespace`, ns, m)));
    }
  } else if (namespace !== undefined && namespace !== null)
    out.push(fieldError.forbidden(`${path}.namespace`, "`parameters.scope` is set to 'Cluster'"));
  return out;
}

/**
 * An IngressClass: a controller that is a domain-prefixed path of at most 250 characters and never
 * changes; parameters naming a kind and a name, scoped Cluster (no namespace) or Namespace (with one).
 * @param ingressClass the IngressClass about to be stored
 * @param old the stored one, on updates
 * @returns the causes, empty when valid
 */
export function validateIngressClass(ingressClass: KubeObject, old?: KubeObject): StatusCause[] {
  const spec = shape.obj((ingressClass as Obj).spec);
  const controller = shape.text(spec.controller);
  const out: StatusCause[] = [];
  if (controller.length > MAX_CONTROLLER) out.push(fieldError.tooLong('spec.controller', MAX_CONTROLLER));
  out.push(...domainPrefixedPath(controller, 'spec.controller'));
  if (spec.parameters !== undefined && spec.parameters !== null)
    out.push(...parametersCauses(shape.obj(spec.parameters)));
  const before = old ? shape.obj((old as Obj).spec).controller : undefined;
  if (old && shape.text(before) !== controller)
    out.push(fieldError.invalid('spec.controller', controller, 'field is immutable'));
  return out;
}
