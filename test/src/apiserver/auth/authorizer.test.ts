// --authorization-mode parsing and the mode chain: AlwaysAllow, RBAC, the public paths and self reviews.
import { describe, expect, it } from 'vitest';
import { InvalidConfigError } from '../../../../operators/errors.ts';
import { createAuthorizer, parseAuthorizationModes } from '../../../../src/apiserver/auth/authorizer.ts';
import { pathAttrs, rbacSource, resourceAttrs } from './rbac-fixtures.ts';

describe('parseAuthorizationModes', () => {
  it.each([
    ['RBAC', ['RBAC']],
    ['AlwaysAllow', ['AlwaysAllow']],
    ['RBAC,AlwaysAllow', ['RBAC', 'AlwaysAllow']],
    [' RBAC , AlwaysAllow ', ['RBAC', 'AlwaysAllow']],
  ])('reads %j', (value, modes) => {
    expect(parseAuthorizationModes(value)).toEqual(modes);
  });

  it.each([
    ['Node,RBAC', /unsupported authorization mode "Node" \(kube-apiserver has Node; kube-rx does not\)/],
    ['Node,Webhook,RBAC', /unsupported authorization modes "Node", "Webhook"/],
    ['Magic', /unsupported authorization mode "Magic"; supported: AlwaysAllow, RBAC/],
    ['RBAC,RBAC', /specified more than once: RBAC/],
    ['', /at least one mode/],
  ])('refuses %j, naming the flag and the modes', (value, message) => {
    let thrown: unknown;
    try {
      parseAuthorizationModes(value);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InvalidConfigError);
    expect((thrown as InvalidConfigError).field).toBe('--authorization-mode');
    expect((thrown as Error).message).toMatch(message);
  });
});

describe('createAuthorizer', () => {
  const none = rbacSource({});
  const anonymous = { name: 'system:anonymous', groups: ['system:unauthenticated'] };
  const alice = { name: 'alice', groups: ['system:authenticated'] };

  it.each([
    [
      'RBAC',
      'alice reads secrets',
      resourceAttrs(alice.name, alice.groups, 'get', 'secrets', '', 'ns'),
      false,
    ],
    [
      'AlwaysAllow',
      'alice reads secrets',
      resourceAttrs(alice.name, alice.groups, 'get', 'secrets', '', 'ns'),
      true,
    ],
    [
      'AlwaysAllow',
      'anonymous reads secrets',
      resourceAttrs(anonymous.name, anonymous.groups, 'get', 'secrets', '', 'ns'),
      false,
    ],
    [
      'RBAC',
      'anonymous reads /healthz',
      pathAttrs(anonymous.name, anonymous.groups, 'get', '/healthz'),
      true,
    ],
    [
      'RBAC',
      'anonymous reads /version',
      pathAttrs(anonymous.name, anonymous.groups, 'get', '/version'),
      true,
    ],
    [
      'RBAC',
      'anonymous posts /healthz',
      pathAttrs(anonymous.name, anonymous.groups, 'post', '/healthz'),
      false,
    ],
    ['RBAC', 'anonymous reads /api', pathAttrs(anonymous.name, anonymous.groups, 'get', '/api'), false],
    [
      'RBAC',
      'alice reviews herself',
      resourceAttrs(
        alice.name,
        alice.groups,
        'create',
        'selfsubjectaccessreviews',
        '',
        '',
        'authorization.k8s.io',
      ),
      true,
    ],
    [
      'RBAC',
      'alice reviews others',
      resourceAttrs(
        alice.name,
        alice.groups,
        'create',
        'subjectaccessreviews',
        '',
        '',
        'authorization.k8s.io',
      ),
      false,
    ],
    [
      'RBAC',
      'anonymous reviews itself',
      resourceAttrs(
        anonymous.name,
        anonymous.groups,
        'create',
        'selfsubjectaccessreviews',
        '',
        '',
        'authorization.k8s.io',
      ),
      false,
    ],
  ])('%s: %s → %s', (mode, _name, attrs, allowed) => {
    expect(createAuthorizer(parseAuthorizationModes(mode), none)(attrs).allowed).toBe(allowed);
  });
});
