// The attributes an authorizer decides on, read from a request's method, path and query.
import type { UserInfo } from './user-info.ts';

/** What a request asks to do, as upstream's authorizer.Attributes. */
export interface RequestAttributes {
  user: UserInfo;
  verb: string;
  /** True for /api and /apis URLs that name a resource; false for discovery, health and the rest. */
  resourceRequest: boolean;
  apiGroup: string;
  apiVersion: string;
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
  /** The URL path, decided on for non-resource requests. */
  path: string;
}

const METHOD_VERBS: Record<string, string> = {
  POST: 'create',
  GET: 'get',
  HEAD: 'get',
  PUT: 'update',
  PATCH: 'patch',
  DELETE: 'delete',
};

/**
 * The attributes of one request, as upstream's RequestInfoFactory reads them: `/api/v1/...` and
 * `/apis/<group>/<version>/...` with at least a resource are resource requests (GET of a
 * collection is `list`, or `watch` with `watch=true` or under `/watch/`; DELETE of a collection is
 * `deletecollection`); everything else is a non-resource request whose verb is the method in lower case.
 * @param method the HTTP method
 * @param path the URL path, not decoded
 * @param query the query string
 * @param user who asks
 */
export function requestAttributes(
  method: string,
  path: string,
  query: URLSearchParams,
  user: UserInfo,
): RequestAttributes {
  const trimmed = path.replace(/\/+$/, '') || '/';
  const nonResource: RequestAttributes = {
    user,
    verb: method.toLowerCase(),
    resourceRequest: false,
    apiGroup: '',
    apiVersion: '',
    resource: '',
    subresource: '',
    namespace: '',
    name: '',
    path: trimmed,
  };
  let parts = trimmed.split('/').filter(Boolean).map(decodeURIComponent);
  let apiGroup: string;
  let apiVersion: string;
  if (parts[0] === 'api' && parts.length >= 2) {
    apiGroup = '';
    apiVersion = parts[1]!;
    parts = parts.slice(2);
  } else if (parts[0] === 'apis' && parts.length >= 3) {
    apiGroup = parts[1]!;
    apiVersion = parts[2]!;
    parts = parts.slice(3);
  } else {
    return nonResource;
  }
  if (parts.length === 0) return nonResource;
  let verb = METHOD_VERBS[method.toUpperCase()] ?? method.toLowerCase();
  if (parts[0] === 'watch' || parts[0] === 'proxy') {
    if (parts[0] === 'watch') verb = 'watch';
    else verb = 'proxy';
    parts = parts.slice(1);
  }
  let namespace = '';
  if (parts[0] === 'namespaces') {
    if (parts.length > 1) {
      namespace = parts[1]!;
      // /namespaces/<ns>, /status and /finalize are the namespace object; other paths are inside it.
      if (parts.length > 2 && parts[2] !== 'status' && parts[2] !== 'finalize') parts = parts.slice(2);
    }
  }
  const [resource = '', name = '', subresource = ''] = parts;
  if (name === '') {
    if (verb === 'get') {
      const watch = query.get('watch');
      verb = watch === 'true' || watch === '1' ? 'watch' : 'list';
    } else if (verb === 'delete') verb = 'deletecollection';
  }
  // A watch of one object by fieldSelector metadata.name is authorized on that name, as upstream.
  let objectName = name;
  if ((verb === 'list' || verb === 'watch') && objectName === '') {
    const selected = /^metadata\.name=([^,]+)$/.exec(query.get('fieldSelector') ?? '');
    if (selected) objectName = selected[1]!;
  }
  return {
    user,
    verb,
    resourceRequest: true,
    apiGroup,
    apiVersion,
    resource,
    subresource,
    namespace,
    name: objectName,
    path: trimmed,
  };
}
