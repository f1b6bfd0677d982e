// The compiled CEL rules of a CRD version, compiled once per CRD uid, generation and version.
import type { CustomResourceDefinition } from '../custom-resource-definition.ts';
import type { JSONSchemaProps } from '../json-schema-props.ts';
import { type CompiledSchemaRules, compileSchemaRules } from './compile-schema-rules.ts';

const MAX_ENTRIES = 256;
const cache = new Map<string, CompiledSchemaRules>();

/**
 * The compiled rules of a CRD version's schema, from a cache keyed by the CRD's uid, generation and
 * the version (a CRD's schema changes only with its generation); the oldest entry goes when the
 * cache is full. A CRD without uid (not stored) is compiled each time.
 * @param crd the CRD
 * @param version the version name
 * @param schema that version's openAPIV3Schema
 */
export function celRulesFor(
  crd: CustomResourceDefinition,
  version: string,
  schema: JSONSchemaProps,
): CompiledSchemaRules {
  const uid = crd.metadata?.uid;
  if (!uid) return compileSchemaRules(schema);
  const key = `${uid}/${crd.metadata?.generation ?? 0}/${version}`;
  let compiled = cache.get(key);
  if (!compiled) {
    compiled = compileSchemaRules(schema);
    if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value!);
    cache.set(key, compiled);
  }
  return compiled;
}
