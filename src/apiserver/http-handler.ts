// The HTTP front of the embedded API server: auth, body limits, content negotiation and routing.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../../operators/logger.ts';
import type { KubeObject } from '../../operators/types.ts';
import {
  ApiStatusError,
  badRequest,
  methodNotAllowed,
  notAcceptable,
  notFound,
  tooLarge,
  unauthorized,
  unsupportedMediaType,
} from './api-status.ts';
import { writeOptions } from './apply/write-options.ts';
import {
  REVIEW_GROUPS,
  reviewAggregatedDiscovery,
  reviewApiGroup,
  reviewApiResourceList,
} from './auth/review-discovery.ts';
import type { ServerAuth } from './auth/server-auth.ts';
import { presentedStore } from './crd/presented-store.ts';
import {
  AGGREGATED_DISCOVERY_TYPE,
  aggregatedDiscovery,
  apiGroup,
  apiGroupList,
  apiResourceList,
  apiVersions,
  SERVER_VERSION,
} from './discovery.ts';
import {
  bodySchema,
  checkBodyFields,
  fieldValidationDirective,
  pruneUnknownFields,
  warningHeaderValue,
} from './field-validation.ts';
import { isPlainObject } from './merge-patch.ts';
import { ApiServerMetrics, storedObjectCounts } from './metrics/index.ts';
import { metricsApi } from './metrics-api/metrics-api.ts';
import {
  METRICS_GROUP,
  metricsAggregatedDiscovery,
  metricsApiGroup,
} from './metrics-api/metrics-discovery.ts';
import type { ObjectStore, StoredObject } from './object-store.ts';
import { OpenApiV2Documents, OpenApiV3Documents, openApiSchemasOf } from './openapi/index.ts';
import { PROTOBUF_CONTENT_TYPE } from './protobuf/content-types.ts';
import { encodeList, encodeObject, hasProtobufForm } from './protobuf/object-codec.ts';
import { protobufBodyAsJson } from './protobuf/protobuf-request-body.ts';
import { ensureUpgradeListener, isPodProxySubresource, proxyPodSubresource } from './proxy/pod-proxy.ts';
import { type DeleteOptions, type ListQuery, PATCH_TYPES, type Registry } from './registry.ts';
import { apiVersionOf, findResource, type ResourceDef, resourceId } from './resource-table.ts';
import { bothSelectors, fieldSelector, labelSelector } from './selectors.ts';
import { type IncludeObject, partialObjectMetadata, partialObjectMetadataList, toTable } from './table.ts';
import { type ActiveWatch, serveWatch, type WatchForm } from './watch-stream.ts';

/** The largest request body accepted, as kube-apiserver: 3 MiB. */
export const MAX_BODY_BYTES = 3 * 1024 * 1024;

/** What the handler needs from the server around it. */
export interface HandlerContext {
  registry: Registry;
  store: ObjectStore;
  log: Logger;
  token: string | undefined;
  /** Authentication and authorization; without it only `token`, when set, is checked. */
  auth?: ServerAuth;
  serverAddress: () => string;
  bookmarkIntervalMs: number;
  maxWatchBufferedBytes: number;
  /** Upper bound of every watch's life in seconds, as kube-apiserver's request timeout; undefined: none. */
  maxWatchSeconds: number | undefined;
  watches: Set<ActiveWatch>;
}

type Form = 'json' | 'table' | 'metadata' | 'aggregated' | 'protobuf';

/** Picks the response form from an Accept header, or throws 406. */
export function negotiate(accept: string | undefined, allowAggregated: boolean, allowProtobuf = false): Form {
  if (!accept) return 'json';
  for (const range of accept.split(',')) {
    const [type = '', ...paramParts] = range.split(';').map((s) => s.trim());
    const params = new Map(paramParts.map((p) => p.split('=').map((s) => s.trim()) as [string, string]));
    if (params.has('q') && Number(params.get('q')) === 0) continue;
    // Protobuf for kinds that have it; Table and PartialObjectMetadata stay JSON.
    if (type === PROTOBUF_CONTENT_TYPE) {
      if (allowProtobuf && !params.has('as')) return 'protobuf';
      continue;
    }
    if (type !== 'application/json' && type !== '*/*' && type !== 'application/*') continue;
    const as = params.get('as');
    if (!as) return 'json';
    const g = params.get('g');
    const v = params.get('v');
    if (as === 'Table' && g === 'meta.k8s.io' && (v === 'v1' || v === 'v1beta1')) return 'table';
    if (
      (as === 'PartialObjectMetadata' || as === 'PartialObjectMetadataList') &&
      g === 'meta.k8s.io' &&
      (v === 'v1' || v === 'v1beta1')
    ) {
      return 'metadata';
    }
    if (allowAggregated && as === 'APIGroupDiscoveryList' && g === 'apidiscovery.k8s.io' && v === 'v2')
      return 'aggregated';
  }
  throw notAcceptable(accept);
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? '0');
    if (declared > MAX_BODY_BYTES) {
      req.resume();
      reject(tooLarge(MAX_BODY_BYTES));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        chunks.length = 0;
        req.removeAllListeners('data');
        req.resume();
        reject(tooLarge(MAX_BODY_BYTES));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw badRequest(
      `the body of the request is not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/**
 * An error's Status in the encoding the request negotiated, as kube-apiserver writes errors: protobuf when an
 * API request's Accept prefers it, JSON otherwise (and when the Accept header itself was the error).
 */
function statusBody(req: IncomingMessage, status: unknown): unknown {
  const path = req.url ?? '';
  if (!path.startsWith('/api/') && !path.startsWith('/apis/')) return status;
  try {
    return negotiate(req.headers.accept, false, true) === 'protobuf' ? encodeObject(status) : status;
  } catch {
    return status;
  }
}

/** Sends a body: a string as is, a Uint8Array as protobuf, anything else as JSON. */
function send(res: ServerResponse, code: number, body: unknown, contentType = 'application/json'): void {
  const proto = body instanceof Uint8Array;
  const text = proto || typeof body === 'string' ? (body as string | Uint8Array) : JSON.stringify(body);
  res.writeHead(code, {
    'Content-Type': proto ? PROTOBUF_CONTENT_TYPE : contentType,
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-cache, private',
  });
  res.end(text);
}

function boolParam(q: URLSearchParams, name: string): boolean | undefined {
  const v = q.get(name);
  if (v === null) return undefined;
  if (v === 'true' || v === '1' || v === '') return true;
  if (v === 'false' || v === '0') return false;
  throw badRequest(`${name}: invalid boolean ${JSON.stringify(v)}`);
}

function intParam(q: URLSearchParams, name: string): number | undefined {
  const v = q.get(name);
  if (v === null || v === '') return undefined;
  if (!/^-?\d+$/.test(v)) throw badRequest(`${name}: invalid integer ${JSON.stringify(v)}`);
  return Number(v);
}

function deleteOptions(body: unknown, q: URLSearchParams): DeleteOptions {
  const out: DeleteOptions = {};
  if (body !== undefined) {
    if (!isPlainObject(body)) throw badRequest('the body of a DELETE must be a DeleteOptions object');
    if (body.kind !== undefined && body.kind !== 'DeleteOptions')
      throw badRequest(`kind: expected DeleteOptions, got ${String(body.kind)}`);
    if (typeof body.gracePeriodSeconds === 'number') out.gracePeriodSeconds = body.gracePeriodSeconds;
    if (typeof body.propagationPolicy === 'string') out.propagationPolicy = body.propagationPolicy;
    if (typeof body.orphanDependents === 'boolean') out.orphanDependents = body.orphanDependents;
    if (isPlainObject(body.preconditions))
      out.preconditions = body.preconditions as DeleteOptions['preconditions'];
    if (Array.isArray(body.dryRun) && body.dryRun.includes('All')) out.dryRun = true;
  }
  const grace = intParam(q, 'gracePeriodSeconds');
  if (grace !== undefined) out.gracePeriodSeconds = grace;
  const policy = q.get('propagationPolicy');
  if (policy) out.propagationPolicy = policy;
  const orphan = boolParam(q, 'orphanDependents');
  if (orphan !== undefined) out.orphanDependents = orphan;
  if (q.get('dryRun') === 'All') out.dryRun = true;
  return out;
}

function listQuery(q: URLSearchParams): ListQuery {
  return {
    resourceVersion: q.get('resourceVersion') ?? undefined,
    resourceVersionMatch: q.get('resourceVersionMatch') ?? undefined,
    limit: intParam(q, 'limit'),
    continue: q.get('continue') ?? undefined,
    labelSelector: q.get('labelSelector') ?? undefined,
    fieldSelector: q.get('fieldSelector') ?? undefined,
  };
}

function includeObjectParam(q: URLSearchParams): IncludeObject {
  const v = q.get('includeObject') ?? 'Metadata';
  if (v !== 'None' && v !== 'Metadata' && v !== 'Object')
    throw badRequest(`includeObject: unsupported value ${JSON.stringify(v)}`);
  return v;
}

/** A listed item as `present` shows it (custom resources: the request's version, read-time defaults). */
function presentedItem(present: (object: KubeObject) => KubeObject) {
  return (item: StoredObject): StoredObject => {
    const object = present(item.object);
    return { object, json: JSON.stringify(object), rv: item.rv };
  };
}

/** The parts of a resource URL. */
interface Target {
  def: ResourceDef;
  namespace: string | undefined;
  name: string | undefined;
  subresource: string | undefined;
  /** `/namespaces/NS/bindings` (POST creates a pod binding). */
  bindings?: boolean;
  legacyWatch: boolean;
}

function resolveTarget(
  table: readonly ResourceDef[],
  segments: string[],
  group: string,
  version: string,
): Target | undefined {
  let legacyWatch = false;
  if (segments[0] === 'watch') {
    legacyWatch = true;
    segments = segments.slice(1);
  }
  let namespace: string | undefined;
  let rest = segments;
  // `/namespaces/NS/status` and `/namespaces/NS/finalize` are the namespace's own subresources
  const namespaceSubresource =
    group === '' && segments.length === 3 && (segments[2] === 'status' || segments[2] === 'finalize');
  if (segments[0] === 'namespaces' && segments.length >= 3 && !namespaceSubresource) {
    namespace = segments[1];
    rest = segments.slice(2);
  }
  const [resource, name, subresource, ...extra] = rest;
  if (!resource || extra.length) return undefined;
  if (namespace && resource === 'bindings' && group === '' && name === undefined) {
    const def = findResource(table, '', 'v1', 'pods');
    return def
      ? { def, namespace, name: undefined, subresource: 'binding', bindings: true, legacyWatch }
      : undefined;
  }
  const def = findResource(table, group, version, resource);
  if (!def) return undefined;
  if (
    def.namespaced !== (namespace !== undefined) &&
    !(def.namespaced && name === undefined && namespace === undefined)
  ) {
    return undefined;
  }
  if (
    subresource &&
    !def.subresources.includes(subresource as 'status') &&
    !(def.resource === 'namespaces' && subresource === 'finalize')
  ) {
    return undefined;
  }
  return { def, namespace, name, subresource, legacyWatch };
}

/**
 * The request handler. Every refusal is a Status with Kubernetes' reason and code; an unexpected
 * exception is logged and answered with 500 InternalError, never thrown out of the handler.
 */
export function createApiHandler(ctx: HandlerContext): (req: IncomingMessage, res: ServerResponse) => void {
  const { registry, log } = ctx;
  const table = registry.table;
  const resourceMetrics = metricsApi({ registry, logger: log });
  const openApi = openApiSchemasOf(registry);
  const openApiV3 = new OpenApiV3Documents(() => registry.table, openApi);
  const openApiV2 = new OpenApiV2Documents(() => registry.table, openApi);
  const metrics = new ApiServerMetrics(() => storedObjectCounts(registry.table, ctx.store));

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const path = url.pathname.replace(/\/+$/, '') || '/';
    const q = url.searchParams;
    const method = req.method ?? 'GET';

    // Authenticate and authorize first (401/403); health paths are open to anonymous requests.
    const attrs = await ctx.auth?.admit(req, url.pathname, q);
    if (path === '/healthz' || path === '/livez' || path === '/readyz') {
      send(res, 200, 'ok', 'text/plain; charset=utf-8');
      return;
    }
    if (!ctx.auth && ctx.token !== undefined && req.headers.authorization !== `Bearer ${ctx.token}`)
      throw unauthorized();
    if (path === '/version') return send(res, 200, SERVER_VERSION);
    if (path === '/metrics') return send(res, 200, await metrics.text(), metrics.registry.contentType);
    if (attrs && ctx.auth?.isReview(attrs)) {
      const body = await readBody(req);
      return send(
        res,
        201,
        ctx.auth.review(attrs, method, body, req.headers['content-type'], req.headers.accept),
      );
    }
    if (path === '/api' || path === '/apis') {
      const form = negotiate(req.headers.accept, true);
      if (form === 'aggregated') {
        const doc = aggregatedDiscovery(table, path === '/api') as { items: object[] };
        if (path === '/apis') doc.items.push(...reviewAggregatedDiscovery(), metricsAggregatedDiscovery()); // create-only reviews; metrics.k8s.io, served below
        return send(res, 200, doc, AGGREGATED_DISCOVERY_TYPE);
      }
      if (path === '/api') return send(res, 200, apiVersions(ctx.serverAddress()));
      const list = apiGroupList(table) as { groups: object[] };
      list.groups.push(...REVIEW_GROUPS.map(reviewApiGroup), metricsApiGroup());
      return send(res, 200, list);
    }
    if (path === '/openapi/v3') return send(res, 200, openApiV3.root());
    if (path.startsWith('/openapi/v3/')) {
      const doc = openApiV3.resolve(path.slice('/openapi/v3/'.length));
      if (!doc) throw new ApiStatusError(404, 'NotFound', 'the server could not find the requested resource');
      return send(res, 200, doc);
    }
    if (path === '/openapi/v2') return openApiV2.serve(req.headers.accept, res); // JSON or gnostic protobuf
    if (path.startsWith('/openapi/')) {
      throw new ApiStatusError(404, 'NotFound', 'the server could not find the requested resource');
    }
    const segments = path.split('/').filter(Boolean).map(decodeURIComponent);
    if (segments[0] === 'apis' && segments[1] === METRICS_GROUP) {
      return resourceMetrics.serve(req, res, segments.slice(2), q); // NodeMetrics/PodMetrics from the kubelets
    }
    let group: string;
    let version: string;
    let rest: string[];
    if (segments[0] === 'api' && segments.length >= 2) {
      group = '';
      version = segments[1]!;
      rest = segments.slice(2);
    } else if (segments[0] === 'apis' && segments.length >= 2) {
      group = segments[1]!;
      if (REVIEW_GROUPS.includes(group) && segments.length <= 3 && (segments[2] ?? 'v1') === 'v1') {
        return send(res, 200, segments.length === 2 ? reviewApiGroup(group) : reviewApiResourceList(group));
      }
      if (segments.length === 2) {
        if (!table.some((d) => d.group === group)) throw notFound({ name: group }, 'groups');
        return send(res, 200, apiGroup(table, group));
      }
      version = segments[2]!;
      rest = segments.slice(3);
    } else {
      throw new ApiStatusError(404, 'NotFound', 'the server could not find the requested resource');
    }
    if (rest.length === 0) {
      if (!table.some((d) => d.group === group && d.version === version)) {
        throw new ApiStatusError(404, 'NotFound', 'the server could not find the requested resource');
      }
      return send(res, 200, apiResourceList(table, group, version));
    }
    if (
      rest[0] === 'namespaces' &&
      rest[2] === 'pods' &&
      rest.length === 5 &&
      isPodProxySubresource(group, 'pods', rest[4])
    ) {
      const proxied = { registry, namespace: rest[1]!, name: rest[3]!, subresource: rest[4], query: q };
      return proxyPodSubresource(req, res, proxied); // pods/log, exec and portforward: the kubelet answers
    }
    const target = resolveTarget(table, rest, group, version);
    if (!target)
      throw new ApiStatusError(404, 'NotFound', 'the server could not find the requested resource');
    await serveResource(req, res, target, q, method);
  };

  const serveResource = async (
    req: IncomingMessage,
    res: ServerResponse,
    t: Target,
    q: URLSearchParams,
    method: string,
  ): Promise<void> => {
    const { def, namespace, name, subresource } = t;
    if (def.deprecationWarning) res.appendHeader('Warning', warningHeaderValue(def.deprecationWarning));
    const dryRun = q.get('dryRun') === 'All';
    const contentType = (req.headers['content-type'] ?? '').split(';')[0]!.trim();
    // Who writes (metadata.managedFields) and server-side apply's force.
    const write = { dryRun, ...writeOptions(method, contentType, q, req.headers['user-agent']) };
    if (
      (method === 'POST' || method === 'PUT') &&
      contentType !== '' &&
      contentType !== 'application/json' &&
      contentType !== PROTOBUF_CONTENT_TYPE &&
      contentType !== '*/*'
    ) {
      req.resume();
      throw unsupportedMediaType(contentType);
    }
    const bytes = method === 'GET' ? undefined : await readBody(req);
    const body =
      bytes === undefined
        ? ''
        : contentType === PROTOBUF_CONTENT_TYPE && method !== 'PATCH'
          ? protobufBodyAsJson(bytes, def, method, subresource)
          : bytes.toString('utf8');
    const form =
      method === 'GET' || method === 'PUT' || method === 'POST' || method === 'PATCH'
        ? negotiate(req.headers.accept, false, hasProtobufForm(apiVersionOf(def), def.kind))
        : 'json';
    /** A non-Table answer (Scale, Status) in the negotiated encoding. */
    const encoded = (object: unknown): unknown => (form === 'protobuf' ? encodeObject(object) : object);
    const render = (stored: KubeObject): unknown => {
      const object = def.present ? def.present(stored) : stored; // custom resources: the request's version
      if (method !== 'GET')
        for (const w of def.writeWarnings?.(object) ?? []) res.appendHeader('Warning', warningHeaderValue(w));
      if (form === 'protobuf') return encodeObject(object);
      if (form === 'table') return toTable(def, [object], { includeObject: includeObjectParam(q) }, {});
      if (form === 'metadata') return partialObjectMetadata(object);
      return object;
    };

    if (t.bindings || subresource === 'binding') {
      if (method !== 'POST') throw methodNotAllowed(method, 'pods/binding');
      return send(res, 201, encoded(registry.bind(def, namespace!, name, parseJson(body))));
    }
    if (subresource && name !== undefined && method === 'POST') {
      // Built-in POST subresources: serviceaccounts/NAME/token, pods/NAME/eviction.
      const out = await registry.postSubresource(def, namespace!, name, subresource, parseJson(body));
      if (out) return send(res, out.code, encoded(out.body));
    }
    if (subresource === 'scale') {
      if (method === 'GET')
        return send(res, 200, encoded(registry.scaleOf(def, registry.get(def, namespace, name!))));
      if (method === 'PUT')
        return send(res, 200, encoded(registry.updateScale(def, namespace!, name!, parseJson(body), write)));
      if (method === 'PATCH') {
        const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim();
        if (!PATCH_TYPES.includes(type as (typeof PATCH_TYPES)[number])) throw unsupportedMediaType(type);
        const scale = registry.scaleOf(def, registry.get(def, namespace, name!)) as Record<string, unknown>;
        return send(
          res,
          200,
          encoded(
            registry.updateScale(def, namespace!, name!, registry.applyPatch(scale, type, body), write),
          ),
        );
      }
      throw methodNotAllowed(method, `${def.resource}/scale`);
    }

    if (name === undefined) {
      const watch = t.legacyWatch || boolParam(q, 'watch') === true;
      if (method === 'GET' && watch) return startWatch(res, t, q, form);
      if (method === 'GET') {
        const listed = registry.list(def, namespace, listQuery(q));
        const page = def.present
          ? { ...listed, items: listed.items.map(presentedItem(def.present)) }
          : listed;
        const metadata: Record<string, unknown> = { resourceVersion: String(page.resourceVersion) };
        if (page.continue) metadata.continue = page.continue;
        if (page.remainingItemCount !== undefined) metadata.remainingItemCount = page.remainingItemCount;
        if (form === 'table') {
          return send(
            res,
            200,
            toTable(
              def,
              page.items.map((i) => i.object),
              { includeObject: includeObjectParam(q) },
              metadata,
            ),
          );
        }
        if (form === 'metadata') {
          return send(
            res,
            200,
            partialObjectMetadataList(
              page.items.map((i) => i.object),
              metadata,
            ),
          );
        }
        if (form === 'protobuf') {
          const items = page.items.map((i) => i.object);
          return send(res, 200, encodeList(apiVersionOf(def), def.kind, metadata, items));
        }
        const head = JSON.stringify({ kind: `${def.kind}List`, apiVersion: apiVersionOf(def), metadata });
        return send(res, 200, `${head.slice(0, -1)},"items":[${page.items.map((i) => i.json).join(',')}]}`);
      }
      if (method === 'POST') {
        if (def.terminating)
          throw new ApiStatusError(
            405,
            'MethodNotAllowed',
            'create not allowed while custom resource definition is terminating',
          );
        const parsed = parseJson(body);
        checkFields(res, def, q, method, contentType, body, parsed);
        await registry.awaitDefaultServiceAccount(def, namespace, parsed);
        return send(res, 201, render(registry.create(def, namespace, parsed, write)));
      }
      if (method === 'DELETE') {
        const items = registry.deleteCollection(
          def,
          namespace,
          listQuery(q),
          deleteOptions(parseJson(body), q),
        );
        return send(res, 200, {
          kind: `${def.kind}List`,
          apiVersion: apiVersionOf(def),
          metadata: {},
          items,
        });
      }
      throw methodNotAllowed(method, def.resource);
    }

    switch (method) {
      case 'GET': {
        if (boolParam(q, 'watch') === true)
          throw badRequest('watch of a single object: use a fieldSelector on metadata.name');
        return send(res, 200, render(registry.get(def, namespace, name).object));
      }
      case 'PUT': {
        const parsed = parseJson(body);
        checkFields(res, def, q, method, contentType, body, parsed);
        return send(res, 200, render(registry.update(def, namespace, name, parsed, subresource, write)));
      }
      case 'PATCH': {
        const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim();
        if (!PATCH_TYPES.includes(type as (typeof PATCH_TYPES)[number])) throw unsupportedMediaType(type);
        if (def.patchTypes && !def.patchTypes.includes(type))
          throw new ApiStatusError(
            415,
            'UnsupportedMediaType',
            `the body of the request was in an unknown format - accepted media types include: ${def.patchTypes.join(', ')}`,
          );
        const patch = checkPatchFields(res, def, q, namespace, name, type, body, subresource);
        const out = registry.patch(def, namespace, name, type, patch, subresource, write);
        return send(res, out.created ? 201 : 200, render(out.object));
      }
      case 'DELETE': {
        if (subresource) throw methodNotAllowed(method, `${def.resource}/${subresource}`);
        const out = registry.delete(def, namespace, name, deleteOptions(parseJson(body), q));
        return send(res, out.gone ? 200 : 200, out.body);
      }
      default:
        throw methodNotAllowed(method, def.resource);
    }
  };

  /**
   * fieldValidation on a create or update body sent as JSON (protobuf bodies have no unknown
   * fields): Strict refuses unknown and duplicate fields, Warn sends them as Warning headers; under
   * both Warn and Ignore the unknown fields are dropped, as decoding into upstream's types drops them.
   */
  const checkFields = (
    res: ServerResponse,
    def: ResourceDef,
    q: URLSearchParams,
    method: string,
    contentType: string,
    text: string,
    body: unknown,
  ): void => {
    const directive = fieldValidationDirective(q, method);
    if (contentType === PROTOBUF_CONTENT_TYPE) return;
    const found = checkBodyFields(openApi, { directive, target: def, text, body });
    for (const w of found) res.appendHeader('Warning', warningHeaderValue(w));
    // Only a body with unknown fields needs pruning (Ignore does not look, so it always prunes).
    if (directive === 'Ignore' || found.some((f) => f.startsWith('unknown')))
      pruneUnknownFields(body, bodySchema(openApi, body, def), openApi);
  };

  /**
   * fieldValidation on a JSON, merge or strategic merge patch (duplicates in the patch, unknown
   * fields in the patched object); returns the patch to apply, its unknown fields dropped.
   */
  const checkPatchFields = (
    res: ServerResponse,
    def: ResourceDef,
    q: URLSearchParams,
    namespace: string | undefined,
    name: string,
    type: string,
    text: string,
    subresource: string | undefined,
  ): string => {
    const directive = fieldValidationDirective(q, 'PATCH');
    const skip = type === 'application/apply-patch+yaml' || (subresource && subresource !== 'status');
    if (skip) return text;
    const jsonPatch = type === 'application/json-patch+json';
    let patched: unknown;
    if (directive !== 'Ignore' || jsonPatch) {
      try {
        const current = registry.get(def, namespace, name).object as Record<string, unknown>;
        patched = registry.applyPatch(structuredClone(current), type, text);
      } catch {
        return text; // a missing object or a patch that does not apply: the patch itself answers that
      }
    }
    if (directive !== 'Ignore') {
      const found = checkBodyFields(openApi, { directive, target: def, text, patch: { type, patched } });
      for (const w of found) res.appendHeader('Warning', warningHeaderValue(w));
      if (!found.some((f) => f.startsWith('unknown'))) return text;
    }
    // Drop the unknown fields: from the patch document, or (a JSON patch) by replacing the whole result.
    if (jsonPatch) {
      const pruned = pruneUnknownFields(patched, bodySchema(openApi, patched, def), openApi);
      return JSON.stringify([{ op: 'replace', path: '', value: pruned }]);
    }
    try {
      const doc = JSON.parse(text) as unknown;
      return JSON.stringify(pruneUnknownFields(doc, bodySchema(openApi, undefined, def), openApi));
    } catch {
      return text;
    }
  };

  const startWatch = (res: ServerResponse, t: Target, q: URLSearchParams, form: Form) => {
    const lq = listQuery(q);
    const sendInitialEvents = boolParam(q, 'sendInitialEvents');
    const allowWatchBookmarks = boolParam(q, 'allowWatchBookmarks') === true;
    if (sendInitialEvents !== undefined) {
      const causes = [];
      if (lq.resourceVersionMatch !== 'NotOlderThan') {
        causes.push({
          type: 'FieldValueForbidden',
          message: 'Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
          field: 'sendInitialEvents',
        });
      }
      if (sendInitialEvents && !allowWatchBookmarks) {
        causes.push({
          type: 'FieldValueForbidden',
          message: 'Forbidden: sendInitialEvents requires allowWatchBookmarks=true',
          field: 'allowWatchBookmarks',
        });
      }
      if (causes.length) {
        throw new ApiStatusError(
          422,
          'Invalid',
          `ListOptions.meta.k8s.io "" is invalid: ${causes.map((c) => `${c.field}: ${c.message}`).join(', ')}`,
          {
            group: 'meta.k8s.io',
            kind: 'ListOptions',
            causes,
          },
        );
      }
    } else if (lq.resourceVersionMatch) {
      throw new ApiStatusError(
        422,
        'Invalid',
        'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch',
        {
          group: 'meta.k8s.io',
          kind: 'ListOptions',
          causes: [
            {
              type: 'FieldValueForbidden',
              message: 'Forbidden: resourceVersionMatch is forbidden for watch',
              field: 'resourceVersionMatch',
            },
          ],
        },
      );
    }
    const selector = bothSelectors(
      labelSelector(lq.labelSelector),
      fieldSelector(lq.fieldSelector, t.def.fieldSelectors),
    );
    const requested = intParam(q, 'timeoutSeconds');
    const timeoutSeconds =
      ctx.maxWatchSeconds === undefined
        ? requested
        : requested === undefined || requested <= 0
          ? ctx.maxWatchSeconds
          : Math.min(requested, ctx.maxWatchSeconds);
    let done = false;
    let active: ActiveWatch | undefined;
    const endWatch = metrics.watch(res, t.def);
    active = serveWatch(
      t.def.present ? presentedStore(ctx.store, resourceId(t.def), t.def.present) : ctx.store,
      {
        def: t.def,
        namespace: t.namespace,
        selector,
        resourceVersion: lq.resourceVersion,
        sendInitialEvents,
        allowWatchBookmarks,
        timeoutSeconds,
        bookmarkIntervalMs: ctx.bookmarkIntervalMs,
        maxBufferedBytes: ctx.maxWatchBufferedBytes,
        form: (form === 'aggregated' ? 'json' : form) as WatchForm,
        includeObject: includeObjectParam(q),
      },
      res,
      log,
      () => {
        done = true;
        endWatch();
        if (active) ctx.watches.delete(active);
      },
    );
    if (!done) ctx.watches.add(active);
  };

  const served = (req: IncomingMessage, res: ServerResponse): void => {
    ensureUpgradeListener(req, served); // WebSocket pods/exec arrives as an upgrade
    const started = Date.now();
    metrics.observe(req, res);
    handle(req, res)
      .catch((error: unknown) => {
        if (res.headersSent) {
          log.error({ err: error }, 'request failed after its answer started');
          res.destroy();
          return;
        }
        if (error instanceof ApiStatusError) {
          send(res, error.statusCode, statusBody(req, error.status));
          return;
        }
        log.error({ err: error, method: req.method, url: req.url }, 'internal error');
        const internal = new ApiStatusError(
          500,
          'InternalError',
          `Internal error occurred: ${error instanceof Error ? error.message : String(error)}`,
        );
        send(res, 500, statusBody(req, internal.status));
      })
      .finally(() => {
        log.debug(
          { method: req.method, url: req.url, code: res.statusCode, ms: Date.now() - started },
          'request',
        );
      });
  };
  return served;
}
