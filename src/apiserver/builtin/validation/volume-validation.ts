// validateVolumes: a pod's volumes as upstream validates them (unique DNS-label names, exactly one source, the common sources' fields).

import { isQuantity, quantityMilliValue } from '../../../../operators/api/quantity.ts';
import type { StatusCause } from '../../api-status.ts';
import { downwardApiFieldCauses } from './downward-api-field.ts';
import { fieldError } from './field-error.ts';
import { filePathCauses } from './file-path-rules.ts';
import { formatErrors } from './format-rules.ts';
import { type Obj, shape } from './json-shape.ts';
import { validatePersistentVolumeClaimSpec } from './persistent-volume-claim-spec-validation.ts';

const HOST_PATH_TYPES = [
  '',
  'BlockDevice',
  'CharDevice',
  'Directory',
  'DirectoryOrCreate',
  'File',
  'FileOrCreate',
  'Socket',
];

/** Every volume source, in the order upstream counts them. */
const SOURCES = [
  'emptyDir',
  'hostPath',
  'gitRepo',
  'gcePersistentDisk',
  'awsElasticBlockStore',
  'secret',
  'nfs',
  'iscsi',
  'glusterfs',
  'flocker',
  'persistentVolumeClaim',
  'rbd',
  'cinder',
  'cephfs',
  'quobyte',
  'downwardAPI',
  'fc',
  'flexVolume',
  'configMap',
  'azureFile',
  'vsphereVolume',
  'photonPersistentDisk',
  'portworxVolume',
  'azureDisk',
  'storageos',
  'projected',
  'scaleIO',
  'csi',
  'ephemeral',
  'image',
];

function keyToPathCauses(item: Obj, path: string): StatusCause[] {
  const out: StatusCause[] = [];
  if (shape.empty(item.key)) out.push(fieldError.required(`${path}.key`));
  const file = shape.str(item.path) ?? '';
  if (file === '') out.push(fieldError.required(`${path}.path`));
  out.push(
    ...filePathCauses.nonReserved(file, `${path}.path`),
    ...filePathCauses.mode(item.mode, `${path}.mode`),
  );
  return out;
}

function itemsCauses(source: Obj, path: string): StatusCause[] {
  return shape.list(source.items).flatMap((item, i) => keyToPathCauses(item, `${path}.items[${i}]`));
}

function downwardApiFileCauses(file: Obj, path: string): StatusCause[] {
  const out: StatusCause[] = [];
  const name = shape.str(file.path) ?? '';
  if (name === '') out.push(fieldError.required(`${path}.path`));
  out.push(...filePathCauses.nonReserved(name, `${path}.path`));
  if (file.fieldRef !== undefined && file.fieldRef !== null) {
    out.push(...downwardApiFieldCauses('fieldRef', file.fieldRef, `${path}.fieldRef`, 'volume'));
    if (file.resourceFieldRef !== undefined && file.resourceFieldRef !== null)
      out.push(
        fieldError.invalid(
          path,
          'resource',
          'fieldRef and resourceFieldRef can not be specified simultaneously',
        ),
      );
  } else if (file.resourceFieldRef !== undefined && file.resourceFieldRef !== null) {
    out.push(
      ...downwardApiFieldCauses(
        'resourceFieldRef',
        file.resourceFieldRef,
        `${path}.resourceFieldRef`,
        'volume',
      ),
    );
  } else out.push(fieldError.required(path, 'one of fieldRef and resourceFieldRef is required'));
  out.push(...filePathCauses.mode(file.mode, `${path}.mode`));
  return out;
}

function projectedCauses(projected: Obj, path: string): StatusCause[] {
  const out = filePathCauses.mode(projected.defaultMode, `${path}.defaultMode`);
  const paths = new Set<string>();
  const claim = (file: unknown, conflictValue: unknown) => {
    if (typeof file !== 'string' || file === '') return;
    if (paths.has(file)) out.push(fieldError.invalid(path, conflictValue, 'conflicting duplicate paths'));
    else paths.add(file);
  };
  shape.list(projected.sources).forEach((source, i) => {
    const at = `${path}.sources[${i}]`;
    let count = 0;
    for (const [kind, nameField] of [
      ['secret', 'name'],
      ['configMap', 'name'],
    ] as const) {
      if (source[kind] === undefined || source[kind] === null) continue;
      count++;
      const s = shape.obj(source[kind]);
      if (shape.empty(s[nameField])) out.push(fieldError.required(`${at}.${kind}.name`));
      shape.list(s.items).forEach((item, j) => {
        out.push(...keyToPathCauses(item, `${at}.${kind}.items[${j}]`));
        claim(item.path, s.name ?? '');
      });
    }
    if (source.downwardAPI !== undefined && source.downwardAPI !== null) {
      count++;
      for (const file of shape.list(shape.obj(source.downwardAPI).items)) {
        out.push(...downwardApiFileCauses(file, `${at}.downwardAPI`));
        claim(file.path, file.path);
      }
    }
    if (source.serviceAccountToken !== undefined && source.serviceAccountToken !== null) {
      count++;
      const token = shape.obj(source.serviceAccountToken);
      const seconds = shape.num(token.expirationSeconds) ?? 3600;
      const secondsAt = `${at}.serviceAccountToken.expirationSeconds`;
      if (seconds < 600)
        out.push(fieldError.invalid(secondsAt, seconds, 'may not specify a duration less than 10 minutes'));
      if (seconds > 2 ** 32)
        out.push(
          fieldError.invalid(secondsAt, seconds, 'may not specify a duration larger than 2^32 seconds'),
        );
      if (shape.empty(token.path)) out.push(fieldError.required(`${path}.path`));
    }
    if (source.clusterTrustBundle !== undefined && source.clusterTrustBundle !== null) count++;
    if (count > 1) out.push(fieldError.forbidden(at, 'may not specify more than 1 volume type per source'));
  });
  return out;
}

/** The rules of each source checked in detail; the others are only counted. */
const SOURCE_RULES: Readonly<Record<string, (source: Obj, path: string) => StatusCause[]>> = {
  emptyDir: (s, path) => {
    const limit = s.sizeLimit;
    if (limit === undefined || limit === null) return [];
    const ok = (typeof limit === 'string' || typeof limit === 'number') && isQuantity(limit);
    return ok && quantityMilliValue(limit) >= 0
      ? []
      : [fieldError.forbidden(`${path}.sizeLimit`, 'SizeLimit field must be a valid resource quantity')];
  },
  hostPath: (s, path) => {
    const p = shape.str(s.path) ?? '';
    if (p === '') return [fieldError.required(`${path}.path`)];
    const out = filePathCauses.noBacksteps(p, `${path}.path`);
    if (s.type !== undefined && s.type !== null && !HOST_PATH_TYPES.includes(shape.text(s.type)))
      out.push(fieldError.notSupported(`${path}.type`, s.type, HOST_PATH_TYPES));
    return out;
  },
  secret: (s, path) => [
    ...(shape.empty(s.secretName) ? [fieldError.required(`${path}.secretName`)] : []),
    ...filePathCauses.mode(s.defaultMode, `${path}.defaultMode`),
    ...itemsCauses(s, path),
  ],
  configMap: (s, path) => [
    ...(shape.empty(s.name) ? [fieldError.required(`${path}.name`)] : []),
    ...filePathCauses.mode(s.defaultMode, `${path}.defaultMode`),
    ...itemsCauses(s, path),
  ],
  persistentVolumeClaim: (s, path) =>
    shape.empty(s.claimName) ? [fieldError.required(`${path}.claimName`)] : [],
  downwardAPI: (s, path) => [
    ...filePathCauses.mode(s.defaultMode, `${path}.defaultMode`),
    ...shape.list(s.items).flatMap((file) => downwardApiFileCauses(file, path)),
  ],
  projected: projectedCauses,
  ephemeral: (s, path) =>
    s.volumeClaimTemplate === undefined || s.volumeClaimTemplate === null
      ? [fieldError.required(`${path}.volumeClaimTemplate`)]
      : validatePersistentVolumeClaimSpec(
          shape.obj(shape.obj(s.volumeClaimTemplate).spec),
          `${path}.volumeClaimTemplate.spec`,
        ),
};

/**
 * A pod's volumes: each has a unique DNS-1123-label name and exactly one source; emptyDir, hostPath,
 * secret, configMap, persistentVolumeClaim, downwardAPI, projected and ephemeral sources are checked
 * field by field (names, file paths relative without '..', file modes 0..0777, token lifetimes).
 * @param volumes the `volumes` list
 * @param path its field path, e.g. `spec.volumes`
 * @returns the causes, empty when valid
 */
export function validateVolumes(volumes: unknown, path: string): StatusCause[] {
  const out: StatusCause[] = [];
  const names = new Set<string>();
  shape.list(volumes).forEach((volume, i) => {
    const at = `${path}[${i}]`;
    let count = 0;
    for (const source of SOURCES) {
      if (volume[source] === undefined || volume[source] === null) continue;
      if (count > 0) {
        out.push(fieldError.forbidden(`${at}.${source}`, 'may not specify more than 1 volume type'));
        continue;
      }
      count++;
      out.push(...(SOURCE_RULES[source]?.(shape.obj(volume[source]), `${at}.${source}`) ?? []));
    }
    if (count === 0) out.push(fieldError.required(at, 'must specify a volume type'));
    const name = shape.str(volume.name) ?? '';
    if (name === '') out.push(fieldError.required(`${at}.name`));
    else out.push(...formatErrors.dns1123Label(name).map((m) => fieldError.invalid(`${at}.name`, name, m)));
    if (names.has(name)) out.push(fieldError.duplicate(`${at}.name`, name));
    names.add(name);
  });
  return out;
}
