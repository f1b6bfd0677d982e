// A rule's fieldPath checked against the schema and normalized to the field path its errors are reported at.
import { isJsonObject, type JSONSchemaProps } from '../json-schema-props.ts';

const ESCAPES: Record<string, string> = {
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  "'": "'",
  '\\': '\\',
};

/**
 * Checks a rule's `fieldPath` (`.a.b`, `.a['b.c']`; no list indexes) against the node's schema, as
 * upstream's ValidFieldPath: every step must name a property or, in a map, a key.
 * @param jsonPath the fieldPath
 * @param schema the schema node the rule sits on
 * @returns the field path suffix (`a.b`, `labels[b.c]`) or the reason it is not valid
 */
export function ruleFieldPath(
  jsonPath: string,
  schema: JSONSchemaProps,
): { path: string } | { error: string } {
  let s: JSONSchemaProps | undefined = schema;
  let path = '';
  let i = 0;
  const step = (name: string): string | undefined => {
    if (s?.properties) {
      s = s.properties[name];
      if (!s) return 'does not refer to a valid field';
      path = path ? `${path}.${name}` : name;
    } else if (isJsonObject(s?.additionalProperties)) {
      s = s.additionalProperties;
      path = `${path}[${name}]`;
    } else return 'does not refer to a valid field';
    return undefined;
  };
  while (i < jsonPath.length) {
    const c = jsonPath[i];
    let name: string;
    if (c === '.') {
      let j = i + 1;
      while (j < jsonPath.length && !'.[]'.includes(jsonPath[j]!)) j++;
      if (j === i + 1) return { error: 'unexpected end of JSON path' };
      name = jsonPath.slice(i + 1, j);
      i = j;
    } else if (c === '[') {
      const m = /^\[\s*'((?:[^'\\]|\\.)*)'\]/.exec(jsonPath.slice(i));
      if (!m) return { error: `expected single quoted string but got ${jsonPath.slice(i + 1)}` };
      const bad = /\\[^abfnrtv'\\]/.exec(m[1]!);
      if (bad) return { error: `invalid string literal: invalid escape char ${bad[0]}` };
      name = m[1]!.replace(/\\(.)/g, (_all, ch: string) => ESCAPES[ch]!);
      i += m[0].length;
    } else return { error: `expected [ or . but got: ${jsonPath.slice(i)}` };
    const problem = step(name);
    if (problem) return { error: problem };
  }
  return { path };
}
