// OpenAPI v3 documents: the index of group-versions with hashes, and one document per group-version.
import { createHash } from 'node:crypto';
import { groupVersions } from '../discovery.ts';
import { apiVersionOf, type ResourceDef } from '../resource-table.ts';
import { crdKindSchemas, crdSchemaName } from './crd-kind-schemas.ts';
import { type JsonSchema, refTo } from './json-schema.ts';
import type { OpenApiSchemas } from './openapi-schemas.ts';

/** The OpenAPI path segment of a group-version: `api/v1` or `apis/GROUP/VERSION`. */
export function gvPath(group: string, version: string): string {
  return group ? `apis/${group}/${version}` : `api/${version}`;
}

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1';
const STATUS = `${META}.Status`;
const DELETE_OPTIONS = `${META}.DeleteOptions`;
const PATCH = `${META}.Patch`;

/**
 * The PATCH bodies a resource takes unless its row says otherwise; kubectl's client-side apply sends
 * a strategic merge patch only where the PATCH operation lists it.
 */
const PATCH_TYPES: readonly string[] = [
  'application/apply-patch+yaml',
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
];

function content(schema: JsonSchema | undefined): object | undefined {
  if (!schema) return undefined;
  return {
    'application/json': { schema },
    'application/vnd.kubernetes.protobuf': { schema },
    'application/yaml': { schema },
  };
}

/**
 * The paths of one resource: its collection and object URLs with their operations, each tagged with
 * `x-kubernetes-group-version-kind` and carrying the query parameters the server reads (kubectl looks
 * for `fieldValidation` on PATCH to decide the server validates fields).
 */
function resourcePaths(
  d: ResourceDef,
  kindName: string | undefined,
  listName: string | undefined,
): Record<string, unknown> {
  const gvk = { group: d.group, version: d.version, kind: d.kind };
  const base = `/${gvPath(d.group, d.version)}${d.namespaced ? '/namespaces/{namespace}' : ''}/${d.resource}`;
  const param = (name: string) => ({ name, in: 'query', schema: { type: 'string', uniqueItems: true } });
  const op = (action: string, extra: string[], response: string | undefined, body?: string) => {
    const out: Record<string, unknown> = {
      operationId: `${action}${d.kind}`,
      parameters: [param('pretty'), ...extra.map(param)],
    };
    const requestBody =
      action === 'patch'
        ? Object.fromEntries((d.patchTypes ?? PATCH_TYPES).map((t) => [t, { schema: refTo(PATCH) }]))
        : content(body ? refTo(body) : undefined);
    if (requestBody) out.requestBody = { content: requestBody, required: true };
    out.responses = {
      '200': { description: 'OK', ...(response ? { content: content(refTo(response)) } : {}) },
      '401': { description: 'Unauthorized' },
    };
    out['x-kubernetes-action'] = action;
    out['x-kubernetes-group-version-kind'] = gvk;
    return out;
  };
  const write = ['dryRun', 'fieldManager', 'fieldValidation'];
  const paths: Record<string, unknown> = {
    [base]: {
      get: op(
        'list',
        [
          'labelSelector',
          'fieldSelector',
          'limit',
          'continue',
          'resourceVersion',
          'resourceVersionMatch',
          'watch',
        ],
        listName,
      ),
      post: op('post', write, kindName, kindName),
      delete: op('deletecollection', [], STATUS, DELETE_OPTIONS),
    },
    [`${base}/{name}`]: {
      get: op('get', [], kindName),
      put: op('put', write, kindName, kindName),
      patch: op('patch', [...write, 'force'], kindName),
      delete: op(
        'delete',
        ['dryRun', 'gracePeriodSeconds', 'propagationPolicy', 'orphanDependents'],
        STATUS,
        DELETE_OPTIONS,
      ),
    },
  };
  if (d.subresources.includes('status')) {
    paths[`${base}/{name}/status`] = {
      get: op('get', [], kindName),
      put: op('put', write, kindName, kindName),
      patch: op('patch', [...write, 'force'], kindName),
    };
  }
  return paths;
}

/**
 * One group-version's OpenAPI v3 document: the paths of its resources and, in `components.schemas`,
 * the schemas of its kinds and every schema they refer to (named as upstream: `io.k8s.api.core.v1.Pod`).
 */
export function openApiV3Document(
  table: readonly ResourceDef[],
  schemas: OpenApiSchemas,
  group: string,
  version: string,
): object {
  const paths: Record<string, unknown> = {};
  const roots = new Set<string>([
    STATUS,
    DELETE_OPTIONS,
    PATCH,
    ...Object.keys(schemas.addedComponents(group, version)),
  ]);
  const fallbacks: Record<string, JsonSchema> = {};
  for (const d of table) {
    if (d.group !== group || d.version !== version) continue;
    let kindName = schemas.kindSchemaName(group, version, d.kind);
    let listName = schemas.kindSchemaName(group, version, `${d.kind}List`);
    if (!kindName) {
      // A kind nobody described yet: any object with the standard fields, so explain still finds it.
      Object.assign(fallbacks, crdKindSchemas({ group, version, kind: d.kind }));
      kindName = crdSchemaName(group, version, d.kind);
      listName = crdSchemaName(group, version, `${d.kind}List`);
      roots.add(`${META}.ObjectMeta`).add(`${META}.ListMeta`);
    }
    Object.assign(paths, resourcePaths(d, kindName, listName));
    if (!fallbacks[kindName]) roots.add(kindName);
    if (listName && !fallbacks[listName]) roots.add(listName);
  }
  const components = { ...schemas.closure(roots), ...fallbacks };
  return {
    openapi: '3.0.0',
    info: { title: 'Kubernetes', version: 'v1.32.0' },
    paths,
    components: {
      schemas: Object.fromEntries(
        Object.keys(components)
          .sort()
          .map((k) => [k, components[k]!]),
      ),
    },
  };
}

/** Every group-version with a document: those of the resource table and those CRDs added schemas to. */
export function servedGroupVersions(
  table: readonly ResourceDef[],
  schemas: OpenApiSchemas,
): { group: string; version: string }[] {
  const seen = new Map<string, { group: string; version: string }>();
  for (const gv of [...groupVersions(table), ...schemas.addedGroupVersions()]) seen.set(apiVersionOf(gv), gv);
  return [...seen.values()];
}

/** Documents with their hashes, cached while neither the schemas nor the group-version's resources change. */
export class OpenApiV3Documents {
  readonly #cache = new Map<string, { key: string; doc: object; hash: string }>();

  private readonly table: () => readonly ResourceDef[];
  private readonly schemas: OpenApiSchemas;

  constructor(table: () => readonly ResourceDef[], schemas: OpenApiSchemas) {
    this.table = table;
    this.schemas = schemas;
  }

  /** The document of `group`/`version` and its hash (upper-case hex of SHA-256, as kubectl expects in `?hash=`). */
  get(group: string, version: string): { doc: object; hash: string } {
    const table = this.table();
    const defs = table.filter((d) => d.group === group && d.version === version);
    const key = `${this.schemas.generation}|${defs.map((d) => `${d.resource}:${d.kind}:${d.namespaced}:${d.subresources}`).join(',')}`;
    const gv = `${group}/${version}`;
    const hit = this.#cache.get(gv);
    if (hit && hit.key === key) return hit;
    const doc = openApiV3Document(table, this.schemas, group, version);
    const hash = createHash('sha512').update(JSON.stringify(doc)).digest('hex').toUpperCase().slice(0, 128);
    const entry = { key, doc, hash };
    this.#cache.set(gv, entry);
    return entry;
  }

  /** The v3 root: one entry per group-version, pointing at its document with its hash. */
  root(): object {
    const paths: Record<string, { serverRelativeURL: string }> = {};
    for (const { group, version } of servedGroupVersions(this.table(), this.schemas)) {
      const p = gvPath(group, version);
      paths[p] = { serverRelativeURL: `/openapi/v3/${p}?hash=${this.get(group, version).hash}` };
    }
    return { paths };
  }

  /** Resolves `/openapi/v3/<rest>` to a group-version document, or undefined (404). */
  resolve(rest: string): object | undefined {
    const parts = rest.split('/').filter(Boolean);
    const [root, a, b] = parts;
    const gv =
      root === 'api' && parts.length === 2
        ? { group: '', version: a! }
        : root === 'apis' && parts.length === 3
          ? { group: a!, version: b! }
          : undefined;
    if (!gv) return undefined;
    const served = servedGroupVersions(this.table(), this.schemas).some(
      (x) => x.group === gv.group && x.version === gv.version,
    );
    return served ? this.get(gv.group, gv.version).doc : undefined;
  }
}
