// A minimal OpenAPI v3 document set: enough for kubectl to see that PATCH takes `fieldValidation`.
import { createHash } from 'node:crypto';
import { groupVersions } from './discovery.ts';
import { apiVersionOf, type ResourceDef } from './resource-table.ts';

/** The OpenAPI path segment of a group-version: `api/v1` or `apis/GROUP/VERSION`. */
function gvPath(group: string, version: string): string {
  return group ? `apis/${group}/${version}` : `api/${version}`;
}

/**
 * One group-version's OpenAPI v3 document: each resource's object path with GET, PUT, PATCH and
 * DELETE tagged with `x-kubernetes-group-version-kind` and the query parameters the server reads.
 * It carries no schemas: the server checks fields itself.
 */
export function openApiV3Document(table: readonly ResourceDef[], group: string, version: string): object {
  const paths: Record<string, unknown> = {};
  const param = (name: string) => ({ name, in: 'query', schema: { type: 'string', uniqueItems: true } });
  for (const d of table.filter((x) => x.group === group && x.version === version)) {
    const gvk = { group: d.group, version: d.version, kind: d.kind };
    const base = `/${gvPath(group, version)}${d.namespaced ? '/namespaces/{namespace}' : ''}/${d.resource}`;
    const op = (action: string, extra: string[] = []) => ({
      operationId: `${action}${d.kind}`,
      parameters: [param('pretty'), ...extra.map(param)],
      responses: { '200': { description: 'OK' } },
      'x-kubernetes-action': action,
      'x-kubernetes-group-version-kind': gvk,
    });
    paths[base] = {
      get: op('list', [
        'labelSelector',
        'fieldSelector',
        'limit',
        'continue',
        'resourceVersion',
        'resourceVersionMatch',
        'watch',
      ]),
      post: op('post', ['dryRun', 'fieldManager', 'fieldValidation']),
      delete: op('deletecollection'),
    };
    paths[`${base}/{name}`] = {
      get: op('get'),
      put: op('put', ['dryRun', 'fieldManager', 'fieldValidation']),
      patch: op('patch', ['dryRun', 'fieldManager', 'fieldValidation', 'force']),
      delete: op('delete', ['dryRun', 'gracePeriodSeconds', 'propagationPolicy', 'orphanDependents']),
    };
  }
  return {
    openapi: '3.0.0',
    info: { title: 'Kubernetes (kube-rx embedded API server)', version: 'v1.32.0' },
    paths,
    components: { schemas: {} },
  };
}

/** The OpenAPI v3 root: one entry per group-version, each pointing at its document. */
export function openApiV3Root(table: readonly ResourceDef[]): object {
  const paths: Record<string, { serverRelativeURL: string }> = {};
  for (const { group, version } of groupVersions(table)) {
    const p = gvPath(group, version);
    const hash = createHash('sha256')
      .update(JSON.stringify(openApiV3Document(table, group, version)))
      .digest('hex')
      .slice(0, 32)
      .toUpperCase();
    paths[p] = { serverRelativeURL: `/openapi/v3/${p}?hash=${hash}` };
  }
  return { paths };
}

/** Resolves `/openapi/v3/...` to a group-version document, or undefined. */
export function openApiV3For(table: readonly ResourceDef[], rest: string): object | undefined {
  const parts = rest.split('/').filter(Boolean);
  const [root, a, b] = parts;
  const gv =
    root === 'api' && parts.length === 2
      ? { group: '', version: a! }
      : root === 'apis' && parts.length === 3
        ? { group: a!, version: b! }
        : undefined;
  if (!gv || !table.some((d) => apiVersionOf(d) === (gv.group ? `${gv.group}/${gv.version}` : gv.version)))
    return undefined;
  return openApiV3Document(table, gv.group, gv.version);
}
