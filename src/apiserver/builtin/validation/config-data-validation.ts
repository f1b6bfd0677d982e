// validateConfigData: a ConfigMap's or Secret's keys, total size, type-specific keys and immutability, as upstream checks them.
import type { KubeObject } from '../../../../operators/types.ts';
import type { StatusCause } from '../../api-status.ts';
import { fieldError } from './field-error.ts';
import { formatErrors } from './format-rules.ts';
import { type Obj, shape } from './json-shape.ts';

/** core.MaxSecretSize: the most a ConfigMap's or Secret's values may hold together. */
const MAX_SIZE = 1024 * 1024;

const keyCauses = (key: string, path: string) =>
  formatErrors.configMapKey(key).map((m) => fieldError.invalid(`${path}[${key}]`, key, m));

function configMapCauses(o: Obj): StatusCause[] {
  const out: StatusCause[] = [];
  const data = shape.obj(o.data);
  const binary = shape.obj(o.binaryData);
  let size = 0;
  for (const [key, value] of Object.entries(data)) {
    out.push(...keyCauses(key, 'data'));
    if (key in binary)
      out.push(fieldError.invalid(`data[${key}]`, key, 'duplicate of key present in binaryData'));
    size += Buffer.byteLength(shape.text(value ?? ''), 'utf8');
  }
  for (const [key, value] of Object.entries(binary)) {
    out.push(...keyCauses(key, 'binaryData'));
    if (key in data)
      out.push(fieldError.invalid(`binaryData[${key}]`, key, 'duplicate of key present in data'));
    size += Buffer.from(shape.text(value ?? ''), 'base64').length;
  }
  if (size > MAX_SIZE) out.push(fieldError.tooLong('', MAX_SIZE));
  return out;
}

/** Keys a Secret of each type must carry. */
function secretTypeCauses(
  o: Obj,
  keys: ReadonlySet<string>,
  values: ReadonlyMap<string, Buffer>,
): StatusCause[] {
  const has = (key: string) => keys.has(key);
  const need = (...required: string[]) =>
    required.filter((k) => !has(k)).map((k) => fieldError.required(`data[${k}]`));
  switch (o.type) {
    case 'kubernetes.io/service-account-token': {
      const annotations = shape.obj(shape.obj(o.metadata).annotations);
      return shape.empty(annotations['kubernetes.io/service-account.name'])
        ? [fieldError.required('metadata.annotations[kubernetes.io/service-account.name]')]
        : [];
    }
    case 'kubernetes.io/dockercfg':
    case 'kubernetes.io/dockerconfigjson': {
      const key = o.type === 'kubernetes.io/dockercfg' ? '.dockercfg' : '.dockerconfigjson';
      if (!has(key)) return need(key);
      try {
        const parsed = JSON.parse(values.get(key)?.toString('utf8') ?? '');
        if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
          throw new Error('not an object');
        return [];
      } catch (error) {
        return [fieldError.invalid(`data[${key}]`, '<secret contents redacted>', (error as Error).message)];
      }
    }
    case 'kubernetes.io/basic-auth':
      return has('username') || has('password') ? [] : need('username', 'password');
    case 'kubernetes.io/ssh-auth':
      return (values.get('ssh-privatekey')?.length ?? 0) === 0
        ? [fieldError.required('data[ssh-privatekey]')]
        : [];
    case 'kubernetes.io/tls':
      return need('tls.crt', 'tls.key');
    default:
      return [];
  }
}

function secretCauses(o: Obj): StatusCause[] {
  const out: StatusCause[] = [];
  const values = new Map<string, Buffer>();
  for (const [key, value] of Object.entries(shape.obj(o.data)))
    values.set(key, Buffer.from(shape.text(value ?? ''), 'base64'));
  for (const [key, value] of Object.entries(shape.obj(o.stringData)))
    values.set(key, Buffer.from(shape.text(value ?? ''), 'utf8'));
  let size = 0;
  for (const [key, value] of values) {
    out.push(...keyCauses(key, 'data'));
    size += value.length;
  }
  if (size > MAX_SIZE) out.push(fieldError.tooLong('data', MAX_SIZE));
  out.push(...secretTypeCauses(o, new Set(values.keys()), values));
  return out;
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? {}) === JSON.stringify(b ?? {});
}

function immutableCauses(o: Obj, old: Obj, fields: readonly string[]): StatusCause[] {
  if (old.immutable !== true) return [];
  const out: StatusCause[] = [];
  if (o.immutable !== true)
    out.push(fieldError.forbidden('immutable', 'field is immutable when `immutable` is set'));
  for (const f of fields)
    if (!sameJson(o[f], old[f]))
      out.push(fieldError.forbidden(f, 'field is immutable when `immutable` is set'));
  return out;
}

/**
 * ConfigMaps and Secrets: every key a config key (`[-._a-zA-Z0-9]+`, not `.`/`..`-prefixed), no key
 * both in `data` and `binaryData`, at most 1 MiB of values, the keys each Secret type requires
 * (tls.crt and tls.key, .dockerconfigjson holding a JSON object, ...); on update, an immutable object's
 * data and flag stay, and a Secret's type never changes.
 * @param kind which kind
 * @returns the kind's validator
 */
export function validateConfigData(kind: 'ConfigMap' | 'Secret') {
  return (object: KubeObject, old?: KubeObject): StatusCause[] => {
    const o = object as Obj;
    if (kind === 'ConfigMap')
      return [...configMapCauses(o), ...(old ? immutableCauses(o, old as Obj, ['data', 'binaryData']) : [])];
    const out = secretCauses(o);
    if (old) {
      out.push(...immutableCauses(o, old as Obj, ['data']));
      const type = o.type ?? 'Opaque';
      if (type !== ((old as Obj).type ?? 'Opaque'))
        out.push(fieldError.invalid('type', type, 'field is immutable'));
    }
    return out;
  };
}
