// validateAppArmorProfile: a securityContext's appArmorProfile as upstream's validateAppArmorProfileField checks it.
import type { StatusCause } from '../../api-status.ts';
import { fieldError } from './field-error.ts';
import { shape } from './json-shape.ts';

const TYPES = ['Localhost', 'RuntimeDefault', 'Unconfined'];
const MAX_LOCALHOST_PROFILE = 4095;

/**
 * A known type; Localhost with a localhostProfile that is not blank, not padded with whitespace and at
 * most 4095 bytes; no localhostProfile with the other types.
 * @param profile the `appArmorProfile` (absent gives no causes)
 * @param path its field path, e.g. `spec.securityContext.appArmorProfile`
 * @returns the causes, empty when valid
 */
export function validateAppArmorProfile(profile: unknown, path: string): StatusCause[] {
  if (profile === undefined || profile === null) return [];
  const p = shape.obj(profile);
  const local = p.localhostProfile;
  const field = `${path}.localhostProfile`;
  const type = shape.text(p.type);
  if (type === 'Localhost') {
    if (local === undefined || local === null)
      return [fieldError.required(field, 'must be set when AppArmor type is Localhost')];
    const text = shape.text(local);
    const out: StatusCause[] = [];
    if (text.trim() !== text) out.push(fieldError.invalid(field, text, 'must not be padded with whitespace'));
    else if (text === '') out.push(fieldError.required(field, 'must be set when AppArmor type is Localhost'));
    if (Buffer.byteLength(text) > MAX_LOCALHOST_PROFILE)
      out.push(fieldError.tooLong(field, MAX_LOCALHOST_PROFILE));
    return out;
  }
  if (type === 'RuntimeDefault' || type === 'Unconfined')
    return local === undefined || local === null
      ? []
      : [fieldError.invalid(field, local, 'can only be set when AppArmor type is Localhost')];
  if (type === '')
    return [fieldError.required(`${path}.type`, 'type is required when appArmorProfile is set')];
  return [fieldError.notSupported(`${path}.type`, p.type, TYPES)];
}
