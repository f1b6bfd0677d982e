// validatePersistentVolumeClaimSpec: a claim's spec (a PersistentVolumeClaim's, an ephemeral volume's claim template's) as upstream's ValidatePersistentVolumeClaimSpec checks it.
import type { StatusCause } from '../../api-status.ts';
import { validateAccessModes } from './access-modes-validation.ts';
import { fieldError } from './field-error.ts';
import { formatErrors } from './format-rules.ts';
import { type Obj, shape } from './json-shape.ts';
import { validateLabels } from './labels-validation.ts';
import { positiveQuantity } from './positive-quantity.ts';

const VOLUME_MODES = ['Block', 'Filesystem'];

const present = (value: unknown) => value !== undefined && value !== null;
const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** validateDataSource / validateDataSourceRef: a name, a kind, PersistentVolumeClaim in the core group. */
function dataSourceCauses(ref: Obj, path: string, namespaced: boolean): StatusCause[] {
  const out: StatusCause[] = [];
  if (shape.empty(ref.name)) out.push(fieldError.required(`${path}.name`));
  if (shape.empty(ref.kind)) out.push(fieldError.required(`${path}.kind`));
  const group = shape.str(ref.apiGroup) ?? '';
  if (group === '' && ref.kind !== 'PersistentVolumeClaim')
    out.push(
      fieldError.invalid(
        path,
        ref.kind ?? '',
        "must be 'PersistentVolumeClaim' when referencing the default apiGroup",
      ),
    );
  if (group !== '')
    out.push(
      ...formatErrors.dns1123Subdomain(group).map((m) => fieldError.invalid(`${path}.apiGroup`, group, m)),
    );
  const namespace = shape.str(ref.namespace) ?? '';
  if (namespaced && namespace !== '')
    out.push(
      ...formatErrors
        .dns1123Label(namespace)
        .map((m) => fieldError.invalid(`${path}.namespace`, namespace, m)),
    );
  return out;
}

/**
 * ValidatePersistentVolumeClaimSpec: at least one known access mode, a storage request above zero, a
 * DNS-subdomain storage class, a known volume mode, data sources that name a claim or an API group's
 * kind, and dataSource equal to dataSourceRef (or absent when the ref names a namespace).
 * @param spec the claim's spec (also a claim template's)
 * @param path its field path
 * @returns the causes, empty when valid
 */
export function validatePersistentVolumeClaimSpec(spec: Obj, path: string): StatusCause[] {
  const out = validateAccessModes(
    spec.accessModes,
    `${path}.accessModes`,
    'at least 1 access mode is required',
  );
  // the selector's expressions are checked with every `spec.selector`; its labels here
  out.push(...validateLabels(shape.obj(spec.selector).matchLabels, `${path}.selector.matchLabels`));
  const requests = shape.obj(shape.obj(spec.resources).requests);
  if (!present(requests.storage)) out.push(fieldError.required(`${path}.resources[storage]`));
  else out.push(...positiveQuantity(requests.storage, `${path}.resources[storage]`));
  const className = shape.str(spec.storageClassName) ?? '';
  if (className !== '')
    out.push(
      ...formatErrors
        .dns1123Subdomain(className)
        .map((m) => fieldError.invalid(`${path}.storageClassName`, className, m)),
    );
  if (present(spec.volumeMode) && !VOLUME_MODES.includes(shape.text(spec.volumeMode)))
    out.push(fieldError.notSupported(`${path}.volumeMode`, spec.volumeMode, VOLUME_MODES));
  const source = spec.dataSource;
  const ref = spec.dataSourceRef;
  if (present(source)) out.push(...dataSourceCauses(shape.obj(source), `${path}.dataSource`, false));
  if (present(ref)) out.push(...dataSourceCauses(shape.obj(ref), `${path}.dataSourceRef`, true));
  const s = shape.obj(source);
  const r = shape.obj(ref);
  if (!shape.empty(r.namespace)) {
    if (present(source))
      out.push(
        fieldError.invalid(
          path,
          `${path}.dataSource`,
          'may not be specified when dataSourceRef.namespace is specified',
        ),
      );
  } else if (
    present(source) &&
    present(ref) &&
    !(same(s.apiGroup, r.apiGroup) && s.kind === r.kind && s.name === r.name)
  )
    out.push(fieldError.invalid(path, `${path}.dataSource`, 'must match dataSourceRef'));
  return out;
}
