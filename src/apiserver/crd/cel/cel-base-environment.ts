// The CEL environment every x-kubernetes-validations rule starts from: the standard library plus Kubernetes' extensions.
import { Environment } from '@marcbachmann/cel-js';
import { registerIpLibrary } from './ip-library.ts';
import { registerListsLibrary } from './lists-library.ts';
import { registerQuantityLibrary } from './quantity-library.ts';
import { registerRegexLibrary } from './regex-library.ts';
import { registerStringsLibrary } from './strings-library.ts';
import { registerUrlLibrary } from './url-library.ts';

let base: Environment | undefined;

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
  }
  return base.clone();
}
