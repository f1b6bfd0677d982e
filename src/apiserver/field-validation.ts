// Field validation of request bodies (fieldValidation=Strict|Warn|Ignore): unknown and duplicate fields, by schema.
import { ApiStatusError } from './api-status.ts';
import { builtinSchemas } from './openapi/builtin-schemas.ts';
import type { JsonSchema } from './openapi/json-schema.ts';
import type { OpenApiSchemas } from './openapi/openapi-schemas.ts';

/** What the server does with unknown and duplicate fields. */
export type FieldValidationDirective = 'Ignore' | 'Warn' | 'Strict';

const DIRECTIVES: readonly FieldValidationDirective[] = ['Ignore', 'Strict', 'Warn'];

/**
 * The request's `fieldValidation` directive: Warn when absent, as kube-apiserver defaults it. A value
 * that is none of the three is 422 on the request's options kind (CreateOptions, UpdateOptions or
 * PatchOptions), as upstream words it.
 */
export function fieldValidationDirective(query: URLSearchParams, method: string): FieldValidationDirective {
  const value = query.get('fieldValidation');
  if (value === null || value === '') return 'Warn';
  if ((DIRECTIVES as readonly string[]).includes(value)) return value as FieldValidationDirective;
  const kind = method === 'POST' ? 'CreateOptions' : method === 'PATCH' ? 'PatchOptions' : 'UpdateOptions';
  const supported = DIRECTIVES.map((d) => `"${d}"`).join(', ');
  const message = `Unsupported value: ${JSON.stringify(value)}: supported values: ${supported}`;
  return fail(kind, message);
}

function fail(kind: string, message: string): never {
  throw new ApiStatusError(422, 'Invalid', `${kind}.meta.k8s.io "" is invalid: fieldValidation: ${message}`, {
    group: 'meta.k8s.io',
    kind,
    causes: [{ type: 'FieldValueNotSupported', message, field: 'fieldValidation' }],
  });
}

/** A schema node during the scan: a schema, anything goes (duplicates still count), or skipped. */
type Node = JsonSchema | 'any' | 'skip';

/** Follows `$ref` and single-element `allOf` wrappers to the schema that says what a value holds. */
export function concrete(schema: JsonSchema, schemas: SchemaLookup): JsonSchema | undefined {
  let s: JsonSchema | undefined = schema;
  for (let hops = 0; s && hops < 32; hops++) {
    if (typeof s.$ref === 'string') {
      s = schemas.resolve(s);
      continue;
    }
    const allOf = s.allOf;
    if (Array.isArray(allOf) && allOf.length === 1 && s.properties === undefined) {
      s = allOf[0] as JsonSchema;
      continue;
    }
    return s;
  }
  return s;
}

const EMBEDDED: Readonly<Record<string, JsonSchema>> = {
  apiVersion: { type: 'string' },
  kind: { type: 'string' },
  metadata: { $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' },
};

/**
 * What an object schema says of its keys: `props` the known ones, `each` the schema of any other
 * key (`'any'`: anything goes), neither: no key is known. Preserve-unknown-fields and
 * `additionalProperties: true` keep everything; an embedded resource knows apiVersion, kind and
 * metadata; a schema that is not an object schema (oneOf, a primitive) is not ours to judge.
 */
function objectShape(s: JsonSchema): { props?: Record<string, JsonSchema>; each?: JsonSchema | 'any' } {
  let props =
    s.properties && typeof s.properties === 'object'
      ? (s.properties as Record<string, JsonSchema>)
      : undefined;
  if (s['x-kubernetes-embedded-resource'] === true)
    props = {
      apiVersion: EMBEDDED.apiVersion!,
      kind: EMBEDDED.kind!,
      ...props,
      metadata: EMBEDDED.metadata!,
    };
  const extra = s.additionalProperties;
  if (s['x-kubernetes-preserve-unknown-fields'] === true || extra === true) return { props, each: 'any' };
  if (extra && typeof extra === 'object') return { props, each: extra as JsonSchema };
  if (props || s.type === 'object') return { props: props ?? {} };
  return { each: 'any' };
}

/** What the scan needs from a schema set: `$ref` resolution. */
export interface SchemaLookup {
  resolve(schema: JsonSchema): JsonSchema | undefined;
}

class Scanner {
  i = 0;
  readonly problems: string[] = [];
  readonly text: string;
  readonly schemas: SchemaLookup;
  /** Duplicates only (unknown fields are found by a walk of the decoded value, as for custom resources). */
  readonly duplicatesOnly: boolean;
  constructor(text: string, schemas: SchemaLookup, duplicatesOnly: boolean) {
    this.text = text;
    this.schemas = schemas;
    this.duplicatesOnly = duplicatesOnly;
  }

  ws(): void {
    const t = this.text;
    let c = t.charCodeAt(this.i);
    while (c === 32 || c === 10 || c === 13 || c === 9) c = t.charCodeAt(++this.i);
  }

  string(): string {
    const t = this.text;
    const start = this.i++;
    let escaped = false;
    for (;;) {
      const c = t.charCodeAt(this.i++);
      if (c === 34) break;
      if (c === 92) {
        escaped = true;
        this.i++;
      } else if (Number.isNaN(c)) throw new SyntaxError('unterminated string');
    }
    const raw = t.slice(start, this.i);
    return escaped ? (JSON.parse(raw) as string) : raw.slice(1, -1);
  }

  value(node: Node, path: string): void {
    this.ws();
    const c = this.text.charCodeAt(this.i);
    if (c === 123) {
      this.object(node, path);
      return;
    }
    if (c === 91) {
      this.array(node, path);
      return;
    }
    if (c === 34) {
      this.string();
      return;
    }
    const t = this.text;
    const start = this.i;
    let d = t.charCodeAt(this.i);
    while (
      this.i < t.length &&
      d !== 44 &&
      d !== 125 &&
      d !== 93 &&
      d !== 32 &&
      d !== 10 &&
      d !== 13 &&
      d !== 9
    )
      d = t.charCodeAt(++this.i);
    if (this.i === start) throw new SyntaxError(`unexpected character at ${start}`);
  }

  /** The schema of each key of an object: `props` known ones only, `map` any key, `any` free form. */
  shape(node: Node): { props?: Record<string, JsonSchema>; each?: Node } {
    if (node === 'any' || node === 'skip') return { each: node };
    const s = concrete(node, this.schemas);
    return s ? objectShape(s) : { each: 'any' };
  }

  object(node: Node, path: string): void {
    this.i++;
    const { props, each } = this.shape(node);
    const seen = node === 'skip' ? undefined : new Set<string>();
    let unknown: Set<string> | undefined;
    this.ws();
    if (this.text.charCodeAt(this.i) === 125) {
      this.i++;
      return;
    }
    for (;;) {
      this.ws();
      const key = this.string();
      this.ws();
      if (this.text.charCodeAt(this.i++) !== 58) throw new SyntaxError(`expected ':' at ${this.i - 1}`);
      const at = path ? `${path}.${key}` : key;
      let child: Node;
      if (seen?.has(key)) {
        // A typed decode reports a field both unknown and repeated once, as unknown.
        if (!unknown?.has(key)) this.problems.push(`duplicate field ${JSON.stringify(at)}`);
        child = 'skip';
      } else {
        seen?.add(key);
        const known = props && Object.hasOwn(props, key) ? props[key] : undefined;
        if (known) child = known;
        else if (each) child = each;
        else if (this.duplicatesOnly) child = 'any';
        else {
          this.problems.push(`unknown field ${JSON.stringify(at)}`);
          unknown ??= new Set();
          unknown.add(key);
          child = 'skip';
        }
      }
      this.value(child, at);
      this.ws();
      const c = this.text.charCodeAt(this.i++);
      if (c === 125) return;
      if (c !== 44) throw new SyntaxError(`expected ',' or '}' at ${this.i - 1}`);
    }
  }

  array(node: Node, path: string): void {
    this.i++;
    let items: Node = node;
    if (node !== 'any' && node !== 'skip') {
      const s = concrete(node, this.schemas);
      items = s?.items && typeof s.items === 'object' ? (s.items as JsonSchema) : 'any';
    }
    this.ws();
    if (this.text.charCodeAt(this.i) === 93) {
      this.i++;
      return;
    }
    for (let index = 0; ; index++) {
      this.value(items, `${path}[${index}]`);
      this.ws();
      const c = this.text.charCodeAt(this.i++);
      if (c === 93) return;
      if (c !== 44) throw new SyntaxError(`expected ',' or ']' at ${this.i - 1}`);
    }
  }
}

/**
 * The unknown and duplicate fields of a JSON text read against `schema`, in upstream's words:
 * `unknown field "spec.foo"`, `duplicate field "spec.replicas"` (array elements as `containers[0]`).
 *
 * `typed` (built-in kinds, decoded into Go types upstream): document order, and a field both unknown
 * and repeated is reported once, as unknown. Untyped (custom resources, decoded into a map and then
 * pruned): every duplicate first, in document order, then the unknown fields in the order pruning
 * finds them (each object's known fields first, then its own unknown ones sorted; embedded resources'
 * metadata last).
 *
 * A schema that keeps unknown fields (`x-kubernetes-preserve-unknown-fields`) or a map
 * (`additionalProperties`) accepts any key; an object schema with neither properties nor those knows
 * no field. `schema` undefined checks duplicates only. Text that is not JSON gives no findings (the
 * decoder reports it).
 */
export function fieldProblems(
  text: string,
  schema: JsonSchema | undefined,
  schemas: SchemaLookup,
  typed = true,
): string[] {
  const scan = new Scanner(text, schemas, !typed);
  try {
    scan.value(schema ?? 'any', '');
  } catch {
    return [];
  }
  if (typed || !schema) return scan.problems;
  const deferred: string[] = [];
  const unknown: string[] = [];
  prunedPaths(JSON.parse(text), schema, schemas, '', unknown, deferred, 0);
  return [...scan.problems, ...[...unknown, ...deferred].map((p) => `unknown field ${JSON.stringify(p)}`)];
}

function prunedPaths(
  value: unknown,
  schema: JsonSchema,
  schemas: SchemaLookup,
  path: string,
  out: string[],
  deferred: string[],
  depth: number,
): void {
  if (value === null || typeof value !== 'object' || depth > 64) return;
  const s = concrete(schema, schemas);
  if (!s) return;
  if (Array.isArray(value)) {
    if (s.items && typeof s.items === 'object')
      value.forEach((v, i) => {
        prunedPaths(v, s.items as JsonSchema, schemas, `${path}[${i}]`, out, deferred, depth + 1);
      });
    return;
  }
  const { props = {}, each } = objectShape(s);
  const own: string[] = [];
  for (const [key, v] of Object.entries(value)) {
    const child = Object.hasOwn(props, key) ? props[key] : each;
    const at = path ? `${path}.${key}` : key;
    if (child === undefined) own.push(at);
    else if (child !== 'any') {
      const embeddedMeta = key === 'metadata' && s['x-kubernetes-embedded-resource'] === true;
      prunedPaths(v, child, schemas, at, embeddedMeta ? deferred : out, deferred, depth + 1);
    }
  }
  out.push(...own.sort());
}

/** `strict decoding error: <problem>, <problem>`: the text kube-apiserver puts around strict findings. */
export function strictDecodingError(problems: readonly string[]): string {
  return `strict decoding error: ${problems.join(', ')}`;
}

/** One `Warning` header value (RFC 7234 warn-code 299, as kube-apiserver sends them; kubectl prints the text). */
export function warningHeaderValue(text: string): string {
  return `299 - "${text.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/** The schema of the kind a body names (`apiVersion`, `kind`), falling back to the resource's kind. */
export function bodySchema(
  schemas: OpenApiSchemas,
  body: unknown,
  fallback: { group: string; version: string; kind: string },
): JsonSchema | undefined {
  return kindSchemaOf(schemas, body, fallback)?.schema;
}

/** The kind schema a body is read against, and whether it is a built-in (typed) kind's. */
function kindSchemaOf(
  schemas: OpenApiSchemas,
  body: unknown,
  fallback: { group: string; version: string; kind: string },
): { schema: JsonSchema; typed: boolean } | undefined {
  const o = (body !== null && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  let { group, version, kind } = fallback;
  if (typeof o.apiVersion === 'string' && typeof o.kind === 'string' && o.kind) {
    const slash = o.apiVersion.indexOf('/');
    group = slash < 0 ? '' : o.apiVersion.slice(0, slash);
    version = slash < 0 ? o.apiVersion : o.apiVersion.slice(slash + 1);
    kind = o.kind;
  }
  const name = schemas.kindSchemaName(group, version, kind);
  const schema = name ? schemas.schema(name) : undefined;
  return schema && { schema, typed: builtinSchemas().schemas.get(name!) === schema };
}

/**
 * A value printed as Go's `%+v` prints the `map[string]interface{}` a JSON document decodes to
 * (maps with sorted keys, `[a b]` slices, `<nil>`): the form of the patch in upstream's strict
 * strategic-merge-patch refusal.
 */
export function goValueString(value: unknown): string {
  if (value === null || value === undefined) return '<nil>';
  if (Array.isArray(value)) return `[${value.map(goValueString).join(' ')}]`;
  if (typeof value === 'object') {
    const o = value as Record<string, unknown>;
    const keys = Object.keys(o).sort();
    return `map[${keys.map((k) => `${k}:${goValueString(o[k])}`).join(' ')}]`;
  }
  return String(value);
}

/** What a JSON patch's operations may carry. */
const JSON_PATCH_SCHEMA: JsonSchema = {
  type: 'array',
  items: {
    type: 'object',
    properties: {
      op: { type: 'string' },
      path: { type: 'string' },
      from: { type: 'string' },
      value: { 'x-kubernetes-preserve-unknown-fields': true },
    },
  },
};

/** JSON with every object's keys sorted, as Go marshals a map. */
function sortedJson(value: unknown): string {
  return JSON.stringify(value, (_, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, (v as Record<string, unknown>)[k]]),
        )
      : v,
  );
}

/** One request body to check. */
export interface BodyCheck {
  directive: FieldValidationDirective;
  /** The resource's group, version and kind (the schema when the body names no kind). */
  target: { group: string; version: string; kind: string };
  /** The body's text, as sent. */
  text: string;
  /** The body parsed (create and update), to read the kind it names. */
  body?: unknown;
  /** For PATCH: the patch type and the object the patch gives (undefined when it does not apply). */
  patch?: { type: string; patched: unknown };
}

/**
 * Checks a create, update or patch body's fields as kube-apiserver does under `fieldValidation`:
 * Ignore checks nothing; Warn returns the findings (the caller sends them as Warning headers);
 * Strict throws them. Create and update: 400 `<Kind> in version "<v>" cannot be handled as a <Kind>:
 * strict decoding error: ...`. Patch: duplicates in the patch, then unknown fields of the patched
 * object, 422 on the `patch` field as upstream words it.
 */
export function checkBodyFields(schemas: OpenApiSchemas, check: BodyCheck): string[] {
  if (check.directive === 'Ignore') return [];
  const { target } = check;
  let problems: string[];
  if (check.patch) {
    if (check.patch.patched === undefined) return [];
    const kind = kindSchemaOf(schemas, check.patch.patched, target);
    // The patch's own findings: a JSON patch's operations, any other patch's duplicates.
    const own =
      check.patch.type === 'application/json-patch+json'
        ? fieldProblems(check.text, JSON_PATCH_SCHEMA, schemas).map((p) => `json patch ${p}`)
        : fieldProblems(check.text, undefined, schemas);
    // The patched object is read as Go marshals a map: keys sorted.
    const result = kind
      ? fieldProblems(sortedJson(check.patch.patched), kind.schema, schemas, kind.typed)
      : [];
    problems = [...own, ...result];
  } else {
    const kind = kindSchemaOf(schemas, check.body, target);
    problems = fieldProblems(check.text, kind?.schema, schemas, kind?.typed ?? true);
  }
  if (problems.length === 0 || check.directive === 'Warn') return problems;
  const detail = strictDecodingError(problems);
  if (check.patch) {
    let shown: string;
    try {
      shown =
        check.patch.type === 'application/strategic-merge-patch+json'
          ? goValueString(JSON.parse(check.text))
          : JSON.stringify(check.patch.patched);
    } catch {
      shown = check.text;
    }
    const message = `Invalid value: ${JSON.stringify(shown)}: ${detail}`;
    throw new ApiStatusError(422, 'Invalid', ` "" is invalid: patch: ${message}`, {
      causes: [{ type: 'FieldValueInvalid', message, field: 'patch' }],
    });
  }
  const o = (check.body ?? {}) as Record<string, unknown>;
  if (typeof o.kind === 'string' && o.kind) {
    const apiVersion = typeof o.apiVersion === 'string' ? o.apiVersion : '';
    const version = apiVersion.slice(apiVersion.indexOf('/') + 1);
    throw new ApiStatusError(
      400,
      'BadRequest',
      `${o.kind} in version ${JSON.stringify(version)} cannot be handled as a ${target.kind}: ${detail}`,
    );
  }
  throw new ApiStatusError(
    400,
    'BadRequest',
    `the object provided is unrecognized (must be of type ${target.kind}): ${detail}`,
  );
}

/**
 * Drops the fields `schema` does not know from a parsed value, in place, as decoding into
 * kube-apiserver's Go types drops them under Warn and Ignore (and as a structural schema prunes a
 * custom resource). Keys starting with `$` (strategic-merge-patch directives) are kept, so a patch
 * document can be pruned too. Returns the value.
 */
export function pruneUnknownFields<T>(value: T, schema: JsonSchema | undefined, schemas: SchemaLookup): T {
  if (schema) prune(value, schema, schemas, 0);
  return value;
}

function prune(value: unknown, schema: JsonSchema, schemas: SchemaLookup, depth: number): void {
  if (value === null || typeof value !== 'object' || depth > 64) return;
  const s = concrete(schema, schemas);
  if (!s) return;
  if (Array.isArray(value)) {
    if (s.items && typeof s.items === 'object')
      for (const v of value) prune(v, s.items as JsonSchema, schemas, depth + 1);
    return;
  }
  const o = value as Record<string, unknown>;
  const { props = {}, each } = objectShape(s);
  for (const key of Object.keys(o)) {
    if (key.startsWith('$')) continue;
    const child = Object.hasOwn(props, key) ? props[key] : each;
    if (child === undefined) delete o[key];
    else if (child !== 'any') prune(o[key], child, schemas, depth + 1);
  }
}
