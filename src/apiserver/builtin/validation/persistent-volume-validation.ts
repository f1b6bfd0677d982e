// validatePersistentVolume: a PersistentVolume as upstream's ValidatePersistentVolume(Update) checks it (capacity, access modes, one source, reclaim policy, node affinity).
import { posix } from 'node:path';
import type { KubeObject } from '../../../../operators/types.ts';
import type { StatusCause } from '../../api-status.ts';
import { validateAccessModes } from './access-modes-validation.ts';
import { fieldError } from './field-error.ts';
import { filePathCauses } from './file-path-rules.ts';
import { formatErrors } from './format-rules.ts';
import { type Obj, shape } from './json-shape.ts';
import { validateNodeSelector } from './node-selector-validation.ts';
import { positiveQuantity } from './positive-quantity.ts';

const RECLAIM_POLICIES = ['Delete', 'Recycle', 'Retain'];
const VOLUME_MODES = ['Block', 'Filesystem'];
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
/** The volume sources of a PersistentVolumeSpec, in the order upstream counts them. */
const SOURCES = [
  'hostPath',
  'gcePersistentDisk',
  'awsElasticBlockStore',
  'glusterfs',
  'flocker',
  'nfs',
  'rbd',
  'quobyte',
  'cephfs',
  'iscsi',
  'cinder',
  'fc',
  'flexVolume',
  'azureFile',
  'vsphereVolume',
  'photonPersistentDisk',
  'portworxVolume',
  'azureDisk',
  'scaleIO',
  'local',
  'storageos',
  'csi',
] as const;

const present = (value: unknown) => value !== undefined && value !== null;
const requiredText = (s: Obj, field: string, path: string) =>
  shape.empty(s[field]) ? [fieldError.required(`${path}.${field}`)] : [];

/** The sources checked field by field; the others are only counted. */
const SOURCE_RULES: Partial<Record<(typeof SOURCES)[number], (s: Obj, path: string) => StatusCause[]>> = {
  hostPath: (s, path) => {
    const p = shape.str(s.path) ?? '';
    if (p === '') return [fieldError.required(`${path}.path`)];
    const out = filePathCauses.noBacksteps(p, `${path}.path`);
    if (present(s.type) && !HOST_PATH_TYPES.includes(shape.text(s.type)))
      out.push(fieldError.notSupported(`${path}.type`, s.type, HOST_PATH_TYPES));
    return out;
  },
  local: (s, path) => {
    const p = shape.str(s.path) ?? '';
    return p === '' ? [fieldError.required(`${path}.path`)] : filePathCauses.noBacksteps(p, `${path}.path`);
  },
  nfs: (s, path) => {
    const out = requiredText(s, 'server', path);
    const p = shape.str(s.path) ?? '';
    if (p === '') out.push(fieldError.required(`${path}.path`));
    else if (!p.startsWith('/')) out.push(fieldError.invalid(`${path}.path`, p, 'must be an absolute path'));
    return out;
  },
  csi: (s, path) => [...requiredText(s, 'driver', path), ...requiredText(s, 'volumeHandle', path)],
};

function capacityCauses(capacity: unknown): StatusCause[] {
  const entries = Object.entries(shape.obj(capacity));
  const out: StatusCause[] = [];
  if (entries.length === 0) out.push(fieldError.required('spec.capacity'));
  if (!entries.some(([name]) => name === 'storage') || entries.length > 1)
    out.push(fieldError.notSupported('spec.capacity', shape.obj(capacity), ['storage']));
  for (const [name, qty] of entries) out.push(...positiveQuantity(qty, `spec.capacity[${name}]`));
  return out;
}

function sourceCauses(spec: Obj, affinity: boolean): StatusCause[] {
  const out: StatusCause[] = [];
  let count = 0;
  for (const source of SOURCES) {
    if (!present(spec[source])) continue;
    if (count > 0 && source !== 'flexVolume') {
      out.push(fieldError.forbidden(`spec.${source}`, 'may not specify more than 1 volume type'));
      continue;
    }
    count++;
    out.push(...(SOURCE_RULES[source]?.(shape.obj(spec[source]), `spec.${source}`) ?? []));
    if (source === 'local' && !affinity)
      out.push(fieldError.required('spec.nodeAffinity', 'Local volume requires node affinity'));
  }
  if (count === 0) out.push(fieldError.required('spec', 'must specify a volume type'));
  return out;
}

function classNameCauses(value: unknown, field: string): StatusCause[] {
  const name = shape.str(value) ?? '';
  return name === ''
    ? []
    : formatErrors.dns1123Subdomain(name).map((m) => fieldError.invalid(field, name, m));
}

function specCauses(spec: Obj): StatusCause[] {
  const out = validateAccessModes(spec.accessModes, 'spec.accessModes', '');
  out.push(...capacityCauses(spec.capacity));
  const policy = spec.persistentVolumeReclaimPolicy;
  if (!shape.empty(policy) && !RECLAIM_POLICIES.includes(shape.text(policy)))
    out.push(fieldError.notSupported('spec.persistentVolumeReclaimPolicy', policy, RECLAIM_POLICIES));
  const affinity = present(spec.nodeAffinity);
  if (affinity) {
    const required = shape.obj(spec.nodeAffinity).required;
    out.push(
      ...(present(required)
        ? validateNodeSelector(required, 'spec.nodeAffinity.required')
        : [fieldError.required('spec.nodeAffinity.required', 'must specify required node constraints')]),
    );
  }
  out.push(...sourceCauses(spec, affinity));
  const hostPath = shape.str(shape.obj(spec.hostPath).path);
  if (hostPath !== undefined && posix.normalize(hostPath) === '/' && policy === 'Recycle')
    out.push(
      fieldError.forbidden(
        'spec.persistentVolumeReclaimPolicy',
        "may not be 'recycle' for a hostPath mount of '/'",
      ),
    );
  out.push(...classNameCauses(spec.storageClassName, 'spec.storageClassName'));
  if (present(spec.volumeMode) && !VOLUME_MODES.includes(shape.text(spec.volumeMode)))
    out.push(fieldError.notSupported('spec.volumeMode', spec.volumeMode, VOLUME_MODES));
  return out;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
const sourceOf = (spec: Obj) =>
  Object.fromEntries(SOURCES.filter((s) => present(spec[s])).map((s) => [s, spec[s]]));

function updateCauses(spec: Obj, oldSpec: Obj): StatusCause[] {
  const out: StatusCause[] = [];
  const next = sourceOf(spec);
  const csi = shape.obj(next.csi);
  const oldCsi = shape.obj(sourceOf(oldSpec).csi);
  // a CSI volume may gain a controllerExpandSecretRef it did not have
  if (present(next.csi) && present(sourceOf(oldSpec).csi) && !present(oldCsi.controllerExpandSecretRef)) {
    const { controllerExpandSecretRef: _added, ...rest } = csi;
    next.csi = rest;
  }
  if (!same(next, sourceOf(oldSpec)))
    out.push(
      fieldError.forbidden(
        'spec.persistentvolumesource',
        'spec.persistentvolumesource is immutable after creation',
      ),
    );
  if (!same(spec.volumeMode, oldSpec.volumeMode))
    out.push(fieldError.invalid('volumeMode', spec.volumeMode ?? null, 'field is immutable'));
  if (present(oldSpec.nodeAffinity) && !same(spec.nodeAffinity, oldSpec.nodeAffinity))
    out.push(fieldError.invalid('nodeAffinity', spec.nodeAffinity ?? null, 'field is immutable'));
  if (!same(spec.volumeAttributesClassName, oldSpec.volumeAttributesClassName))
    out.push(
      fieldError.forbidden(
        'spec.volumeAttributesClassName',
        'update is forbidden when the VolumeAttributesClass feature gate is disabled',
      ),
    );
  return out;
}

/**
 * A PersistentVolume: access modes (see `validateAccessModes`), a capacity of exactly `storage`, above
 * zero; a known reclaim policy (not Recycle for a hostPath of `/`); exactly one volume source, hostPath,
 * local, nfs and csi checked field by field; node affinity with required terms (and required for local
 * volumes); a DNS-subdomain storage class; a known volume mode. On update the source, the volume mode,
 * a node affinity once set and volumeAttributesClassName (its feature gate is off) stay.
 * @param pv the PersistentVolume about to be stored
 * @param old the stored one, on updates
 * @returns the causes, empty when valid
 */
export function validatePersistentVolume(pv: KubeObject, old?: KubeObject): StatusCause[] {
  const spec = shape.obj((pv as Obj).spec);
  const out = specCauses(spec);
  if (old) out.push(...updateCauses(spec, shape.obj((old as Obj).spec)));
  return out;
}
