// validateAccessModes: a PersistentVolume's or claim's accessModes as upstream checks them (known modes, ReadWriteOncePod alone).
import type { StatusCause } from '../../api-status.ts';
import { fieldError } from './field-error.ts';

const ACCESS_MODES = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];

/**
 * At least one mode (`required` is the detail upstream gives, '' for none), each a known one, and
 * ReadWriteOncePod never with another mode. The causes name the list, not an item, as upstream does.
 * @param modes the `accessModes` value
 * @param path its field path, e.g. `spec.accessModes`
 * @param required the Required value's detail
 * @returns the causes, empty when valid
 */
export function validateAccessModes(modes: unknown, path: string, required: string): StatusCause[] {
  const list = Array.isArray(modes) ? (modes as unknown[]) : [];
  const out: StatusCause[] = [];
  if (list.length === 0) out.push(fieldError.required(path, required || undefined));
  let onePod = false;
  let other = false;
  for (const mode of list) {
    const known = typeof mode === 'string' && ACCESS_MODES.includes(mode);
    if (!known) out.push(fieldError.notSupported(path, mode, ACCESS_MODES));
    if (mode === 'ReadWriteOncePod') onePod = true;
    else if (known) other = true;
  }
  if (onePod && other)
    out.push(fieldError.forbidden(path, 'may not use ReadWriteOncePod with other access modes'));
  return out;
}
