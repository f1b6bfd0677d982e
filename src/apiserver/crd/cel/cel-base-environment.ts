// The CEL environment every x-kubernetes-validations rule starts from: the standard library plus Kubernetes' extensions.
import { Environment, EvaluationError } from '@marcbachmann/cel-js';
import { registerIpLibrary } from './ip-library.ts';
import { registerListsLibrary } from './lists-library.ts';
import { registerQuantityLibrary } from './quantity-library.ts';
import { registerRegexLibrary } from './regex-library.ts';
import { HAS_FIELD } from './rewrite-rule-source.ts';
import { registerStringsLibrary } from './strings-library.ts';
import { registerUrlLibrary } from './url-library.ts';

let base: Environment | undefined;

/** has(e.f) for any e: whether the map or object has the field (null fields are absent). */
function hasField(target: unknown, field: string): boolean {
  if (target instanceof Map) return target.has(field);
  if (target !== null && typeof target === 'object' && !Array.isArray(target))
    return Object.hasOwn(target, field) && (target as Record<string, unknown>)[field] !== undefined;
  throw new EvaluationError(`invalid type for field selection.`);
}

/**
 * A new child of the shared base environment (built once): optional types on (`oldSelf.?x`,
 * `optionalOldSelf`), mixed-type list and map literals allowed as in cel-go, and the list, regex,
 * strings, quantity, URL and IP/CIDR libraries registered. The child may register its own types and variables.
 * @returns a fresh environment
 */
export function celBaseEnvironment(): Environment {
  if (!base) {
    base = new Environment({ enableOptionalTypes: true, homogeneousAggregateLiterals: false });
    registerListsLibrary(base);
    registerRegexLibrary(base);
    registerStringsLibrary(base);
    registerQuantityLibrary(base);
    registerUrlLibrary(base);
    registerIpLibrary(base);
    base.registerFunction(`${HAS_FIELD}(dyn, string): bool`, hasField);
  }
  return base.clone();
}
