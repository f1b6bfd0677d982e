// The OpenAPI v2 (Swagger 2.0) document: every group-version's paths and definitions in one JSON body.
import type { ServerResponse } from 'node:http';
import { notAcceptable } from '../api-status.ts';
import type { ResourceDef } from '../resource-table.ts';
import { type JsonSchema, V2_REF_PREFIX, V3_REF_PREFIX } from './json-schema.ts';
import type { OpenApiSchemas } from './openapi-schemas.ts';
import { encodeOpenApiV2, OPENAPI_V2_PROTOBUF } from './openapi-v2-protobuf.ts';
import { openApiV3Document, servedGroupVersions } from './openapi-v3.ts';

/**
 * A v3 schema in v2's form: refs under `#/definitions/`, a lone `allOf` ref with a description as a
 * `$ref` with a sibling description (as kube-apiserver's v2 writes it), and `oneOf` of primitive types
 * (Quantity, IntOrString) as a string.
 */
export function toV2Schema(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toV2Schema);
  if (value === null || typeof value !== 'object') return value;
  const s = value as JsonSchema;
  const out: JsonSchema = {};
  const allOf = s.allOf;
  if (Array.isArray(allOf) && allOf.length === 1 && typeof (allOf[0] as JsonSchema).$ref === 'string') {
    Object.assign(out, toV2Schema(allOf[0]) as JsonSchema);
  }
  for (const [k, v] of Object.entries(s)) {
    if (k === 'allOf' && Object.keys(out).length) continue;
    if (k === 'oneOf' && s.type === undefined) {
      out.type = 'string';
      continue;
    }
    if (k === '$ref' && typeof v === 'string') {
      out.$ref = v.startsWith(V3_REF_PREFIX) ? `${V2_REF_PREFIX}${v.slice(V3_REF_PREFIX.length)}` : v;
      continue;
    }
    out[k] = toV2Schema(v);
  }
  return out;
}

type V3Operation = {
  parameters?: { name: string; in: string }[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  responses?: Record<string, { description: string; content?: Record<string, { schema: JsonSchema }> }>;
  [key: string]: unknown;
};

function toV2Operation(op: V3Operation): object {
  const { parameters = [], requestBody, responses = {}, ...rest } = op;
  const params: object[] = parameters.map((p) => ({
    name: p.name,
    in: p.in,
    type: 'string',
    uniqueItems: true,
  }));
  const body = requestBody?.content['application/json']?.schema;
  if (body) params.push({ name: 'body', in: 'body', required: true, schema: toV2Schema(body) });
  const v2Responses: Record<string, object> = {};
  for (const [code, r] of Object.entries(responses)) {
    const schema = r.content?.['application/json']?.schema;
    v2Responses[code] = schema
      ? { description: r.description, schema: toV2Schema(schema) }
      : { description: r.description };
  }
  return {
    ...rest,
    consumes: ['*/*'],
    produces: ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'],
    schemes: ['https'],
    parameters: params,
    responses: v2Responses,
  };
}

/** The Swagger 2.0 document of everything served: paths of every group-version and their definitions. */
export function openApiV2Document(table: readonly ResourceDef[], schemas: OpenApiSchemas): object {
  const paths: Record<string, Record<string, object>> = {};
  const definitions: Record<string, unknown> = {};
  for (const { group, version } of servedGroupVersions(table, schemas)) {
    const doc = openApiV3Document(table, schemas, group, version) as {
      paths: Record<string, Record<string, V3Operation>>;
      components: { schemas: Record<string, JsonSchema> };
    };
    for (const [path, item] of Object.entries(doc.paths)) {
      const v2: Record<string, object> = {};
      for (const [method, op] of Object.entries(item)) v2[method] = toV2Operation(op);
      paths[path] = v2;
    }
    for (const [name, schema] of Object.entries(doc.components.schemas))
      definitions[name] = toV2Schema(schema);
  }
  return {
    swagger: '2.0',
    info: { title: 'Kubernetes', version: 'v1.32.0' },
    paths,
    definitions: Object.fromEntries(
      Object.keys(definitions)
        .sort()
        .map((k) => [k, definitions[k]]),
    ),
  };
}

/** The v2 document of one server, cached while neither the schemas nor the resources change. */
export class OpenApiV2Documents {
  readonly #table: () => readonly ResourceDef[];
  readonly #schemas: OpenApiSchemas;
  #cache: { key: string; json: string; protobuf?: Uint8Array } | undefined;

  constructor(table: () => readonly ResourceDef[], schemas: OpenApiSchemas) {
    this.#table = table;
    this.#schemas = schemas;
  }

  #current(): { key: string; json: string; protobuf?: Uint8Array } {
    const table = this.#table();
    const key = `${this.#schemas.generation}|${table.map((d) => `${d.group}/${d.version}/${d.resource}:${d.kind}`).join(',')}`;
    if (this.#cache?.key !== key)
      this.#cache = { key, json: JSON.stringify(openApiV2Document(table, this.#schemas)) };
    return this.#cache;
  }

  /** The document as JSON text. */
  json(): string {
    return this.#current().json;
  }

  /** The document in gnostic's protobuf form. */
  protobuf(): Uint8Array {
    const entry = this.#current();
    entry.protobuf ??= encodeOpenApiV2(JSON.parse(entry.json) as Record<string, unknown>);
    return entry.protobuf;
  }

  /**
   * Answers `GET /openapi/v2`: protobuf when the Accept header names gnostic's media type (as
   * client-go's discovery does), JSON when it accepts JSON or anything, else 406.
   */
  serve(accept: string | undefined, res: ServerResponse): void {
    const ranges = (accept ?? '').split(',').map((r) => r.split(';')[0]!.trim());
    const wantsProtobuf = ranges.some((r) => r === OPENAPI_V2_PROTOBUF || r === OPENAPI_V2_PROTOBUF_DOTTED);
    const json =
      !accept || ranges.some((r) => r === 'application/json' || r === '*/*' || r === 'application/*');
    if (!wantsProtobuf && !json) throw notAcceptable(accept ?? '');
    const body = wantsProtobuf ? this.protobuf() : this.json();
    res.writeHead(200, {
      // Answered with the dotted spelling whichever was asked for (Go's mime parser refuses the '@').
      'Content-Type': wantsProtobuf ? OPENAPI_V2_PROTOBUF_DOTTED : 'application/json',
      'Content-Length': Buffer.byteLength(body),
      'Cache-Control': 'no-cache, private',
    });
    res.end(body);
  }
}

/** The older spelling of the protobuf media type, which kube-apiserver also answers. */
const OPENAPI_V2_PROTOBUF_DOTTED = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';
