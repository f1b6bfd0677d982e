// validateEnv: a container's env and envFrom as upstream validates them (names, one value source each, well-formed references).
import type { StatusCause } from '../../api-status.ts';
import { downwardApiFieldCauses } from './downward-api-field.ts';
import { fieldError } from './field-error.ts';
import { formatErrors } from './format-rules.ts';
import { type Obj, shape } from './json-shape.ts';

/** A configMapKeyRef or secretKeyRef: a subdomain name and a config key. */
function keySelectorCauses(ref: Obj, path: string): StatusCause[] {
  const name = shape.str(ref.name) ?? '';
  const out = formatErrors.dns1123Subdomain(name).map((m) => fieldError.invalid(`${path}.name`, name, m));
  const key = shape.str(ref.key) ?? '';
  if (key === '') out.push(fieldError.required(`${path}.key`));
  else out.push(...formatErrors.configMapKey(key).map((m) => fieldError.invalid(`${path}.key`, key, m)));
  return out;
}

function valueFromCauses(env: Obj, path: string): StatusCause[] {
  if (env.valueFrom === undefined || env.valueFrom === null) return [];
  const from = shape.obj(env.valueFrom);
  const out: StatusCause[] = [];
  let sources = 0;
  for (const kind of ['fieldRef', 'resourceFieldRef'] as const) {
    if (from[kind] === undefined || from[kind] === null) continue;
    sources++;
    out.push(...downwardApiFieldCauses(kind, from[kind], `${path}.${kind}`, 'env'));
  }
  for (const kind of ['configMapKeyRef', 'secretKeyRef']) {
    if (from[kind] === undefined || from[kind] === null) continue;
    sources++;
    out.push(...keySelectorCauses(shape.obj(from[kind]), `${path}.${kind}`));
  }
  if (sources === 0)
    out.push(
      fieldError.invalid(
        path,
        '',
        'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`',
      ),
    );
  else if (!shape.empty(env.value))
    out.push(fieldError.invalid(path, '', 'may not be specified when `value` is not empty'));
  else if (sources > 1)
    out.push(fieldError.invalid(path, '', 'may not have more than one field specified at a time'));
  return out;
}

function envFromCauses(envFrom: Obj[], path: string): StatusCause[] {
  const out: StatusCause[] = [];
  envFrom.forEach((source, i) => {
    const at = `${path}[${i}]`;
    const prefix = shape.str(source.prefix) ?? '';
    if (prefix !== '')
      out.push(...formatErrors.envVarName(prefix).map((m) => fieldError.invalid(`${at}.prefix`, prefix, m)));
    let sources = 0;
    for (const kind of ['configMapRef', 'secretRef']) {
      if (source[kind] === undefined || source[kind] === null) continue;
      sources++;
      const name = shape.str(shape.obj(source[kind]).name) ?? '';
      if (name === '') out.push(fieldError.required(`${at}.${kind}.name`));
      else
        out.push(
          ...formatErrors
            .dns1123Subdomain(name)
            .map((m) => fieldError.invalid(`${at}.${kind}.name`, name, m)),
        );
    }
    if (sources === 0)
      out.push(fieldError.invalid(path, '', 'must specify one of: `configMapRef` or `secretRef`'));
    else if (sources > 1)
      out.push(fieldError.invalid(path, '', 'may not have more than one field specified at a time'));
  });
  return out;
}

/**
 * A container's environment: each `env` entry has a name of printable ASCII without '=' and at most
 * one value source (a literal value or one of fieldRef, resourceFieldRef, configMapKeyRef, secretKeyRef);
 * each `envFrom` entry names exactly one ConfigMap or Secret.
 * @param container the container object
 * @param path its field path, e.g. `spec.containers[0]`
 * @returns the causes, empty when valid
 */
export function validateEnv(container: Obj, path: string): StatusCause[] {
  const out: StatusCause[] = [];
  shape.list(container.env).forEach((env, i) => {
    const at = `${path}.env[${i}]`;
    const name = shape.str(env.name) ?? '';
    if (name === '') out.push(fieldError.required(`${at}.name`));
    else out.push(...formatErrors.envVarName(name).map((m) => fieldError.invalid(`${at}.name`, name, m)));
    out.push(...valueFromCauses(env, `${at}.valueFrom`));
  });
  out.push(...envFromCauses(shape.list(container.envFrom), `${path}.envFrom`));
  return out;
}
