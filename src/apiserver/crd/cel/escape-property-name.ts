// How a schema property name is written in CEL, escaped as Kubernetes escapes it (foo-bar as foo__dash__bar).

const RESERVED = new Set(
  'true false null in as break const continue else for function if import let loop package namespace return var void while'.split(
    ' ',
  ),
);
const ESCAPABLE = /^[a-zA-Z_.\-/][a-zA-Z0-9_.\-/]*$/;

/**
 * The CEL field name of a property: a reserved word becomes `__word__`; `__`, `.`, `-` and `/` become
 * `__underscores__`, `__dot__`, `__dash__` and `__slash__`. A name with other characters cannot be
 * reached from CEL.
 * @param name the property name in the schema
 * @returns the CEL name, or undefined when the property is not accessible
 */
export function escapePropertyName(name: string): string | undefined {
  if (RESERVED.has(name)) return `__${name}__`;
  if (!ESCAPABLE.test(name)) return undefined;
  return name.replace(/__|[.\-/]/g, (m) =>
    m === '__' ? '__underscores__' : m === '.' ? '__dot__' : m === '-' ? '__dash__' : '__slash__',
  );
}
