// validatePersistentVolumeClaim: a PersistentVolumeClaim as upstream's ValidatePersistentVolumeClaim(Update) checks it (access modes, storage request, data sources, immutable spec).
import type { KubeObject } from '../../../../operators/types.ts';
import type { StatusCause } from '../../api-status.ts';
import { fieldError } from './field-error.ts';
import { type Obj, shape } from './json-shape.ts';
import { validatePersistentVolumeClaimSpec } from './persistent-volume-claim-spec-validation.ts';
import { quantityMilli } from './positive-quantity.ts';

const BETA_CLASS = 'volume.beta.kubernetes.io/storage-class';

const present = (value: unknown) => value !== undefined && value !== null;
const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

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
