// validatePersistentVolumeClaim: a PersistentVolumeClaim as upstream's ValidatePersistentVolumeClaim(Update) checks it (access modes, storage request, data sources, immutable spec).
import type { KubeObject } from '../../../../operators/types.ts';
import type { StatusCause } from '../../api-status.ts';
import { validateAccessModes } from './access-modes-validation.ts';
import { fieldError } from './field-error.ts';
import { formatErrors } from './format-rules.ts';
import { type Obj, shape } from './json-shape.ts';
import { validateLabels } from './labels-validation.ts';
import { positiveQuantity, quantityMilli } from './positive-quantity.ts';

const VOLUME_MODES = ['Block', 'Filesystem'];
const BETA_CLASS = 'volume.beta.kubernetes.io/storage-class';

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
function validatePersistentVolumeClaimSpec(spec: Obj, path: string): StatusCause[] {
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

function updateCauses(pvc: Obj, old: Obj): StatusCause[] {
  const out: StatusCause[] = [];
  const spec = { ...shape.obj(pvc.spec) };
  const oldSpec = { ...shape.obj(old.spec) };
  if (shape.empty(oldSpec.volumeName)) oldSpec.volumeName = spec.volumeName;
  const oldAnnotation = shape.obj(shape.obj(old.metadata).annotations)[BETA_CLASS];
  const newAnnotation = shape.obj(shape.obj(pvc.metadata).annotations)[BETA_CLASS];
  const fromAnnotation =
    oldAnnotation !== undefined &&
    !present(oldSpec.storageClassName) &&
    present(spec.storageClassName) &&
    spec.storageClassName === oldAnnotation &&
    (newAnnotation === undefined || newAnnotation === oldAnnotation);
  const fromNil =
    present(spec.storageClassName) &&
    !present(oldSpec.storageClassName) &&
    (oldAnnotation === undefined || oldAnnotation === spec.storageClassName);
  if (fromAnnotation || fromNil) spec.storageClassName = oldSpec.storageClassName;
  else if (!same(newAnnotation, oldAnnotation))
    out.push(
      fieldError.invalid(`metadata.annotations.${BETA_CLASS}`, newAnnotation ?? '', 'field is immutable'),
    );
  const bound = shape.obj(pvc.status).phase === 'Bound';
  const newRequests = shape.obj(shape.obj(spec.resources).requests);
  const oldRequests = shape.obj(shape.obj(oldSpec.resources).requests);
  if (bound && present(spec.resources))
    spec.resources = {
      ...shape.obj(spec.resources),
      requests: { ...newRequests, storage: oldRequests.storage },
    };
  spec.volumeAttributesClassName = oldSpec.volumeAttributesClassName;
  if (!same(spec, oldSpec))
    out.push(
      fieldError.forbidden(
        'spec',
        'spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims',
      ),
    );
  const newSize = quantityMilli(newRequests.storage) ?? 0;
  const oldSize = quantityMilli(oldRequests.storage) ?? 0;
  const statusSize = quantityMilli(shape.obj(shape.obj(old.status).capacity).storage) ?? 0;
  if (newSize < oldSize && newSize <= statusSize)
    out.push(
      fieldError.forbidden('spec.resources.requests.storage', 'field can not be less than status.capacity'),
    );
  if (!same(shape.obj(pvc.spec).volumeMode, shape.obj(old.spec).volumeMode))
    out.push(fieldError.invalid('volumeMode', shape.obj(pvc.spec).volumeMode ?? null, 'field is immutable'));
  if (!same(shape.obj(pvc.spec).volumeAttributesClassName, shape.obj(old.spec).volumeAttributesClassName))
    out.push(
      fieldError.forbidden(
        'spec.volumeAttributesClassName',
        'update is forbidden when the VolumeAttributesClass feature gate is disabled',
      ),
    );
  return out;
}

/**
 * A PersistentVolumeClaim: its spec (see `validatePersistentVolumeClaimSpec`); on update the spec
 * stays but for a volumeName set once, a storage class set where there was none (or the beta
 * annotation's), and a bound claim's storage request, which may shrink only while above the recorded
 * status capacity (RecoverVolumeExpansionFailure, on by default); the volume mode stays, and so does
 * volumeAttributesClassName (its feature gate is off by default).
 * @param pvc the claim about to be stored
 * @param old the stored claim, on updates
 * @returns the causes, empty when valid
 */
export function validatePersistentVolumeClaim(pvc: KubeObject, old?: KubeObject): StatusCause[] {
  const out = validatePersistentVolumeClaimSpec(shape.obj((pvc as Obj).spec), 'spec');
  if (old) out.push(...updateCauses(pvc as Obj, old as Obj));
  return out;
}
