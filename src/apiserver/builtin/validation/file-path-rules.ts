// filePathCauses: upstream's checks on paths inside a volume (relative, no '..' element, not starting with '..') and file modes.
import type { StatusCause } from '../../api-status.ts';
import { fieldError } from './field-error.ts';

const FILE_MODE = 'must be a number between 0 and 0777 (octal), both inclusive';

/** Checks on the paths and modes of files a volume projects. */
export const filePathCauses = {
  /** validatePathNoBacksteps: no `..` element. */
  noBacksteps: (path: string, field: string): StatusCause[] =>
    path.split('/').includes('..') ? [fieldError.invalid(field, path, "must not contain '..'")] : [],
  /** validateLocalDescendingPath: relative and without `..` elements. */
  descending(path: string, field: string): StatusCause[] {
    const out = path.startsWith('/') ? [fieldError.invalid(field, path, 'must be a relative path')] : [];
    return [...out, ...filePathCauses.noBacksteps(path, field)];
  },
  /** ValidateLocalNonReservedPath: descending, and not starting with `..` (reserved for the atomic writer). */
  nonReserved(path: string, field: string): StatusCause[] {
    const out = filePathCauses.descending(path, field);
    if (path.startsWith('..') && !path.startsWith('../'))
      out.push(fieldError.invalid(field, path, "must not start with '..'"));
    return out;
  },
  /** A file mode: 0 to 0777. */
  mode: (mode: unknown, field: string): StatusCause[] =>
    typeof mode === 'number' && (mode < 0 || mode > 0o777)
      ? [fieldError.invalid(field, mode, FILE_MODE)]
      : [],
} as const;
