// One API server's OpenAPI schemas: the built-in ones plus what CRDs add per group-version.
import { builtinSchemas, gvkKey } from './builtin-schemas.ts';
import { type JsonSchema, refName } from './json-schema.ts';

/**
 * The schemas one server serves and validates against. Built-in schemas are fixed; a CRD (or any
 * other owner) adds components to a group-version with `setGroupVersion` and takes them back with
 * `removeGroupVersion`. Invariant: `generation` changes whenever what is served changes.
 */
export class OpenApiSchemas {
  /** `group/version` → owner → components by name. */
  readonly #added = new Map<string, Map<string, Readonly<Record<string, JsonSchema>>>>();
  #merged: { schemas: Map<string, JsonSchema>; kinds: Map<string, string> } | undefined;
  #generation = 0;

  /** A number that changes whenever what is served changes (documents cache their hashes by it). */
  get generation(): number {
    return this.#generation;
  }

  /**
   * Sets (replaces) what `owner` contributes to `group`/`version`: OpenAPI v3 components by name,
   * referring to each other and to built-in schemas as `#/components/schemas/<name>`. A kind's schema
   * carries `x-kubernetes-group-version-kind` so explain and field validation find it.
   */
  setGroupVersion(
    owner: string,
    group: string,
    version: string,
    components: Readonly<Record<string, JsonSchema>>,
  ): void {
    const key = `${group}/${version}`;
    const owners = this.#added.get(key) ?? new Map();
    owners.set(owner, { ...components });
    this.#added.set(key, owners);
    this.#changed();
  }

  /** Takes back what `owner` contributed to `group`/`version`; no-op when it contributed nothing. */
  removeGroupVersion(owner: string, group: string, version: string): void {
    const key = `${group}/${version}`;
    const owners = this.#added.get(key);
    if (!owners?.delete(owner)) return;
    if (owners.size === 0) this.#added.delete(key);
    this.#changed();
  }

  /** The group-versions that have added components. */
  addedGroupVersions(): { group: string; version: string }[] {
    return [...this.#added.keys()].map((k) => {
      const slash = k.lastIndexOf('/');
      return { group: k.slice(0, slash), version: k.slice(slash + 1) };
    });
  }

  /** The components added to one group-version (all owners). */
  addedComponents(group: string, version: string): Record<string, JsonSchema> {
    const out: Record<string, JsonSchema> = {};
    for (const components of this.#added.get(`${group}/${version}`)?.values() ?? [])
      Object.assign(out, components);
    return out;
  }

  /** The schema named `name` (built-in or added), or undefined. */
  schema(name: string): JsonSchema | undefined {
    return this.#view().schemas.get(name);
  }

  /** The schema name of a kind, or undefined when none describes it. */
  kindSchemaName(group: string, version: string, kind: string): string | undefined {
    return this.#view().kinds.get(gvkKey(group, version, kind));
  }

  /** Follows `$ref` (v3 or v2 form) to the named schema; other schemas come back as they are. */
  resolve(schema: JsonSchema): JsonSchema | undefined {
    const name = refName(schema);
    return name === undefined ? schema : this.schema(name);
  }

  /**
   * The named schemas and every schema they reach through `$ref`, by name: what one document's
   * `components.schemas` (or `definitions`) must hold.
   */
  closure(names: Iterable<string>): Record<string, JsonSchema> {
    const out: Record<string, JsonSchema> = {};
    const pending = [...names];
    while (pending.length) {
      const name = pending.pop()!;
      if (name in out) continue;
      const schema = this.schema(name);
      if (!schema) continue;
      out[name] = schema;
      collectRefs(schema, pending);
    }
    return Object.fromEntries(
      Object.keys(out)
        .sort()
        .map((k) => [k, out[k]!]),
    );
  }

  #changed(): void {
    this.#generation++;
    this.#merged = undefined;
  }

  #view(): { schemas: Map<string, JsonSchema>; kinds: Map<string, string> } {
    if (this.#merged) return this.#merged;
    const builtin = builtinSchemas();
    const schemas = new Map(builtin.schemas);
    const kinds = new Map(builtin.kinds);
    for (const owners of this.#added.values()) {
      for (const components of owners.values()) {
        for (const [name, schema] of Object.entries(components)) {
          schemas.set(name, schema);
          const gvks = schema['x-kubernetes-group-version-kind'];
          if (!Array.isArray(gvks)) continue;
          for (const g of gvks as { group?: string; version?: string; kind?: string }[])
            kinds.set(gvkKey(g.group ?? '', g.version ?? '', g.kind ?? ''), name);
        }
      }
    }
    this.#merged = { schemas, kinds };
    return this.#merged;
  }
}

function collectRefs(value: unknown, into: string[]): void {
  if (Array.isArray(value)) {
    for (const v of value) collectRefs(v, into);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  const name = refName(value as JsonSchema);
  if (name !== undefined) into.push(name);
  for (const v of Object.values(value)) if (typeof v === 'object') collectRefs(v, into);
}

const PER_SERVER = new WeakMap<object, OpenApiSchemas>();

/**
 * The schemas of the server that owns `registry` (any per-server object works as the key; the HTTP
 * handler passes its Registry), created on first use. CRDs add theirs here.
 */
export function openApiSchemasOf(registry: object): OpenApiSchemas {
  let schemas = PER_SERVER.get(registry);
  if (!schemas) {
    schemas = new OpenApiSchemas();
    PER_SERVER.set(registry, schemas);
  }
  return schemas;
}
