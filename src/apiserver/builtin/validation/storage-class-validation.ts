// validateStorageClass: a storage.k8s.io/v1 StorageClass as upstream's ValidateStorageClass(Update) checks it (provisioner, parameters, policies, topologies).
import type { KubeObject } from '../../../../operators/types.ts';
import type { StatusCause } from '../../api-status.ts';
import { fieldError } from './field-error.ts';
import { formatErrors } from './format-rules.ts';
import { type Obj, shape } from './json-shape.ts';

const RECLAIM_POLICIES = ['Delete', 'Retain'];
const BINDING_MODES = ['Immediate', 'WaitForFirstConsumer'];
const MAX_PARAMETERS = 512;
const MAX_PARAMETERS_SIZE = 256 * 1024;

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? {}) === JSON.stringify(b ?? {});

function parametersCauses(parameters: unknown): StatusCause[] {
  const entries = Object.entries(shape.obj(parameters));
  if (entries.length > MAX_PARAMETERS) return [fieldError.tooLong('parameters', MAX_PARAMETERS)];
  const out: StatusCause[] = [];
  let size = 0;
  for (const [key, value] of entries) {
    if (key === '') out.push(fieldError.invalid('parameters', key, 'field can not be empty.'));
    size += key.length + shape.text(value).length;
  }
  if (size > MAX_PARAMETERS_SIZE) out.push(fieldError.tooLong('parameters', MAX_PARAMETERS_SIZE));
  return out;
}

function topologyCauses(topologies: unknown): StatusCause[] {
  const out: StatusCause[] = [];
  const seen = new Set<string>();
  shape.list(topologies).forEach((term, i) => {
    const at = `allowedTopologies[${i}]`;
    shape.list(shape.obj(term).matchLabelExpressions).forEach((expression, j) => {
      const e = shape.obj(expression);
      const path = `${at}.matchLabelExpressions[${j}]`;
      const key = shape.text(e.key);
      out.push(...formatErrors.qualifiedName(key).map((m) => fieldError.invalid(`${path}.key`, key, m)));
      const values = Array.isArray(e.values) ? e.values.map(String) : [];
      if (values.length === 0)
        out.push(fieldError.required(`${path}.values`, 'must specify as least one value'));
      values.forEach((v, k) => {
        if (values.indexOf(v) < k) out.push(fieldError.duplicate(`${path}.values[${k}]`, v));
      });
    });
    const printed = JSON.stringify(term);
    if (seen.has(printed)) out.push(fieldError.duplicate(at, term));
    seen.add(printed);
  });
  return out;
}

/**
 * A StorageClass: a provisioner that is a qualified name (compared in lower case), at most 512
 * parameters of at most 256 KiB with no empty key, reclaimPolicy Delete or Retain, volumeBindingMode
 * Immediate or WaitForFirstConsumer (absent read as upstream defaults them), allowed topologies with
 * qualified keys and unique values. On update the provisioner, parameters, reclaim policy and
 * binding mode stay.
 * @param sc the StorageClass about to be stored
 * @param old the stored one, on updates
 * @returns the causes, empty when valid
 */
export function validateStorageClass(sc: KubeObject, old?: KubeObject): StatusCause[] {
  const o = sc as Obj;
  const out: StatusCause[] = [];
  const provisioner = shape.text(o.provisioner);
  if (provisioner === '') out.push(fieldError.required('provisioner'));
  else
    out.push(
      ...formatErrors
        .qualifiedName(provisioner.toLowerCase())
        .map((m) => fieldError.invalid('provisioner', provisioner.toLowerCase(), m)),
    );
  out.push(...parametersCauses(o.parameters));
  const policy = shape.defaulted(o.reclaimPolicy, 'Delete');
  if (!RECLAIM_POLICIES.includes(shape.text(policy)))
    out.push(fieldError.notSupported('reclaimPolicy', policy, RECLAIM_POLICIES));
  const mode = shape.defaulted(o.volumeBindingMode, 'Immediate');
  if (!BINDING_MODES.includes(shape.text(mode)))
    out.push(fieldError.notSupported('volumeBindingMode', mode, BINDING_MODES));
  out.push(...topologyCauses(o.allowedTopologies));
  if (!old) return out;
  const before = old as Obj;
  if (!same(o.parameters, before.parameters))
    out.push(fieldError.forbidden('parameters', 'updates to parameters are forbidden.'));
  if (provisioner !== shape.text(before.provisioner))
    out.push(fieldError.forbidden('provisioner', 'updates to provisioner are forbidden.'));
  if (policy !== shape.defaulted(before.reclaimPolicy, 'Delete'))
    out.push(fieldError.forbidden('reclaimPolicy', 'updates to reclaimPolicy are forbidden.'));
  if (mode !== shape.defaulted(before.volumeBindingMode, 'Immediate'))
    out.push(fieldError.invalid('volumeBindingMode', mode, 'field is immutable'));
  return out;
}
