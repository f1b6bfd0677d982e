// Request attributes from URLs: upstream's RequestInfoFactory cases for verbs, namespaces and subresources.
import { describe, expect, it } from 'vitest';
import { requestAttributes } from '../../../../src/apiserver/auth/request-attributes.ts';

const user = { username: 'u', groups: [] };

describe('requestAttributes', () => {
  it.each([
    ['GET', '/api/v1/namespaces', '', 'list', '', 'namespaces', '', '', ''],
    ['GET', '/api/v1/namespaces/other', '', 'get', '', 'namespaces', '', 'other', 'other'],
    ['GET', '/api/v1/namespaces/other/pods/foo', '', 'get', '', 'pods', '', 'other', 'foo'],
    ['GET', '/api/v1/namespaces/other/pods', '', 'list', '', 'pods', '', 'other', ''],
    ['GET', '/api/v1/namespaces/other/pods?watch=true', 'watch=true', 'watch', '', 'pods', '', 'other', ''],
    ['GET', '/api/v1/watch/namespaces/other/pods', '', 'watch', '', 'pods', '', 'other', ''],
    ['GET', '/api/v1/pods', '', 'list', '', 'pods', '', '', ''],
    ['GET', '/api/v1/namespaces/other/pods/foo/log', '', 'get', '', 'pods', 'log', 'other', 'foo'],
    ['GET', '/api/v1/namespaces/other/finalize', '', 'get', '', 'namespaces', 'finalize', 'other', 'other'],
    ['PUT', '/api/v1/namespaces/other/status', '', 'update', '', 'namespaces', 'status', 'other', 'other'],
    ['POST', '/api/v1/namespaces/other/pods', '', 'create', '', 'pods', '', 'other', ''],
    ['PUT', '/api/v1/namespaces/other/pods/foo', '', 'update', '', 'pods', '', 'other', 'foo'],
    ['PATCH', '/api/v1/namespaces/other/pods/foo', '', 'patch', '', 'pods', '', 'other', 'foo'],
    ['DELETE', '/api/v1/namespaces/other/pods/foo', '', 'delete', '', 'pods', '', 'other', 'foo'],
    ['DELETE', '/api/v1/namespaces/other/pods', '', 'deletecollection', '', 'pods', '', 'other', ''],
    [
      'POST',
      '/api/v1/namespaces/other/pods/foo/eviction',
      '',
      'create',
      '',
      'pods',
      'eviction',
      'other',
      'foo',
    ],
    [
      'GET',
      '/apis/apps/v1/namespaces/other/deployments/web/scale',
      '',
      'get',
      'apps',
      'deployments',
      'scale',
      'other',
      'web',
    ],
    [
      'GET',
      '/apis/rbac.authorization.k8s.io/v1/clusterroles',
      '',
      'list',
      'rbac.authorization.k8s.io',
      'clusterroles',
      '',
      '',
      '',
    ],
    [
      'GET',
      '/api/v1/namespaces/other/pods',
      'fieldSelector=metadata.name%3Dfoo&watch=1',
      'watch',
      '',
      'pods',
      '',
      'other',
      'foo',
    ],
  ])(
    '%s %s (%s) → %s %s/%s/%s in "%s" name "%s"',
    (method, path, query, verb, apiGroup, resource, subresource, namespace, name) => {
      const attrs = requestAttributes(method, path.split('?')[0]!, new URLSearchParams(query), user);
      expect(attrs).toMatchObject({
        resourceRequest: true,
        verb,
        apiGroup,
        resource,
        subresource,
        namespace,
        name,
      });
    },
  );

  it.each([
    ['GET', '/healthz', 'get'],
    ['GET', '/api', 'get'],
    ['GET', '/api/v1', 'get'],
    ['GET', '/apis/apps', 'get'],
    ['GET', '/apis/apps/v1', 'get'],
    ['GET', '/openapi/v3', 'get'],
    ['POST', '/logs/', 'post'],
  ])('%s %s is a non-resource request with verb %s', (method, path, verb) => {
    const attrs = requestAttributes(method, path, new URLSearchParams(), user);
    expect(attrs).toMatchObject({ resourceRequest: false, verb, path: path.replace(/\/+$/, '') || '/' });
  });
});
