// Ingresses, IngressClasses and NetworkPolicies, with cases from upstream's networking TestValidateIngress*, TestValidateIngressClass and TestValidateNetworkPolicy tables.
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../../operators/types.ts';
import { validateIngressClass } from '../../../../../src/apiserver/builtin/validation/ingress-class-validation.ts';
import { validateIngress } from '../../../../../src/apiserver/builtin/validation/ingress-validation.ts';
import { validateNetworkPolicy } from '../../../../../src/apiserver/builtin/validation/network-policy-validation.ts';
import { causeLines } from './cause-lines.ts';

const object = (spec: object) => ({ metadata: { name: 'o', namespace: 'ns' }, spec }) as KubeObject;
const backend = { service: { name: 'web', port: { number: 80 } } };
const rule = (host: string | undefined, path: object = {}) => ({
  ...(host === undefined ? {} : { host }),
  http: { paths: [{ path: '/', pathType: 'Prefix', backend, ...path }] },
});
const WILDCARD = `a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character (e.g. '*.example.com', regex used for validation is '\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`;
const SUBDOMAIN = `a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`;

describe('validateIngress', () => {
  it.each([
    ['a rule with a host', { rules: [rule('foo.bar.com')] }, []],
    [
      'a wildcard host',
      { rules: [rule('*.bar.com')], tls: [{ hosts: ['*.bar.com'], secretName: 'tls' }] },
      [],
    ],
    ['only a default backend', { defaultBackend: backend }, []],
    [
      'a resource backend',
      { defaultBackend: { resource: { apiGroup: 'example.com', kind: 'StorageBucket', name: 'static' } } },
      [],
    ],
    [
      'an implementation-specific empty path',
      { rules: [rule(undefined, { path: '', pathType: 'ImplementationSpecific' })] },
      [],
    ],
    [
      'neither rules nor a default backend',
      {},
      [
        'spec: Invalid value: []networking.IngressRule(nil): either `defaultBackend` or `rules` must be specified',
      ],
    ],
    [
      'an IP as host',
      { rules: [rule('127.0.0.1')] },
      ['spec.rules[0].host: Invalid value: "127.0.0.1": must be a DNS name, not an IP address'],
    ],
    [
      'a wildcard not in front',
      { rules: [rule('foo.*.bar.com')] },
      [`spec.rules[0].host: Invalid value: "foo.*.bar.com": ${WILDCARD}`],
    ],
    [
      'a host with capitals',
      { rules: [rule('Foo.com')] },
      [`spec.rules[0].host: Invalid value: "Foo.com": ${SUBDOMAIN}`],
    ],
    [
      'a path without a type',
      { rules: [rule(undefined, { pathType: undefined })] },
      ['spec.rules[0].http.paths[0].pathType: Required value: pathType must be specified'],
    ],
    [
      'an unknown path type',
      { rules: [rule(undefined, { pathType: 'Regex' })] },
      [
        'spec.rules[0].http.paths[0].pathType: Unsupported value: "Regex": supported values: "Exact", "ImplementationSpecific", "Prefix"',
      ],
    ],
    [
      'a relative exact path',
      { rules: [rule(undefined, { path: 'foo', pathType: 'Exact' })] },
      ['spec.rules[0].http.paths[0].path: Invalid value: "foo": must be an absolute path'],
    ],
    [
      'a prefix path with a double slash and a trailing dot',
      { rules: [rule(undefined, { path: '/foo//bar/.' })] },
      [
        `spec.rules[0].http.paths[0].path: Invalid value: "/foo//bar/.": must not contain '//'`,
        `spec.rules[0].http.paths[0].path: Invalid value: "/foo//bar/.": cannot end with '/.'`,
      ],
    ],
    [
      'HTTP without paths',
      { rules: [{ http: { paths: [] } }] },
      ['spec.rules[0].http.paths: Required value'],
    ],
    [
      'both a service and a resource backend',
      { defaultBackend: { ...backend, resource: { kind: 'K', name: 'n' } } },
      ['spec.defaultBackend: Invalid value: "": cannot set both resource and service backends'],
    ],
    [
      'a backend of neither',
      { defaultBackend: {} },
      ['spec.defaultBackend: Invalid value: "": resource or service backend is required'],
    ],
    [
      'a service port by name and number',
      { defaultBackend: { service: { name: 'web', port: { name: 'http', number: 80 } } } },
      ['spec.defaultBackend: Invalid value: "": cannot set both port name & port number'],
    ],
    [
      'a service without a port',
      { defaultBackend: { service: { name: 'web' } } },
      ['spec.defaultBackend: Required value: port name or number is required'],
    ],
    [
      'a service port out of range',
      { defaultBackend: { service: { name: 'web', port: { number: 65536 } } } },
      [
        'spec.defaultBackend.service.port.number: Invalid value: 65536: must be between 1 and 65535, inclusive',
      ],
    ],
    [
      'a resource backend without a kind, named with a slash',
      { defaultBackend: { resource: { name: 'a/b' } } },
      [
        'spec.defaultBackend.resource.kind: Required value: kind is required',
        `spec.defaultBackend.resource.name: Invalid value: "a/b": may not contain '/'`,
      ],
    ],
    [
      'a TLS host with a misplaced wildcard',
      { defaultBackend: backend, tls: [{ hosts: ['*'] }] },
      [`spec.tls[0].hosts[0]: Invalid value: "*": ${WILDCARD}`],
    ],
  ])('%s', (_name, spec, expected) => {
    expect(causeLines(validateIngress(object(spec)))).toEqual(expected);
  });
});

describe('validateIngressClass', () => {
  it.each([
    ['a controller', { controller: 'example.com/ingress' }, []],
    [
      'namespaced parameters',
      {
        controller: 'example.com/ingress',
        parameters: { kind: 'K', name: 'n', scope: 'Namespace', namespace: 'ns' },
      },
      [],
    ],
    ['no controller', {}, ['spec.controller: Required value']],
    [
      'a controller without a domain',
      { controller: 'ingress' },
      ['spec.controller: Invalid value: "ingress": must be a domain-prefixed path (such as "acme.io/foo")'],
    ],
    [
      'a controller path with a space',
      { controller: 'example.com/a b' },
      [
        `spec.controller: Invalid value: "a b": Invalid path (regex used for validation is '[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+')`,
      ],
    ],
    [
      'a controller too long',
      { controller: `example.com/${'a'.repeat(250)}` },
      ['spec.controller: Too long: may not be more than 250 bytes'],
    ],
    [
      'namespace-scoped parameters without a namespace',
      { controller: 'example.com/i', parameters: { kind: 'K', name: 'n', scope: 'Namespace' } },
      ["spec.parameters.namespace: Required value: `parameters.scope` is set to 'Namespace'"],
    ],
    [
      'cluster-scoped parameters with a namespace',
      { controller: 'example.com/i', parameters: { kind: 'K', name: 'n', namespace: 'ns' } },
      ["spec.parameters.namespace: Forbidden: `parameters.scope` is set to 'Cluster'"],
    ],
    [
      'an unknown scope',
      { controller: 'example.com/i', parameters: { kind: 'K', name: 'n', scope: 'Global' } },
      ['spec.parameters.scope: Unsupported value: "Global": supported values: "Cluster", "Namespace"'],
    ],
  ])('%s', (_name, spec, expected) => {
    expect(causeLines(validateIngressClass(object(spec)))).toEqual(expected);
  });

  it('keeps the controller on update', () => {
    const old = object({ controller: 'example.com/a' });
    expect(validateIngressClass(object({ controller: 'example.com/a' }), old)).toEqual([]);
    expect(causeLines(validateIngressClass(object({ controller: 'example.com/b' }), old))).toEqual([
      'spec.controller: Invalid value: "example.com/b": field is immutable',
    ]);
  });
});

describe('validateNetworkPolicy', () => {
  const ingress = (rule: object) => ({ podSelector: {}, ingress: [rule] });
  it.each([
    ['deny all', { podSelector: {} }, []],
    [
      'ports and peers',
      ingress({
        ports: [{ protocol: 'TCP', port: 80 }, { port: 'http' }, { port: 32000, endPort: 32768 }],
        from: [
          { podSelector: { matchLabels: { app: 'web' } }, namespaceSelector: {} },
          { ipBlock: { cidr: '10.0.0.0/16', except: ['10.0.1.0/24'] } },
        ],
      }),
      [],
    ],
    [
      'egress with policy types',
      {
        podSelector: {},
        egress: [{ to: [{ ipBlock: { cidr: 'fd00::/8', except: ['fd00:1::/32'] } }] }],
        policyTypes: ['Ingress', 'Egress'],
      },
      [],
    ],
    [
      'an unknown protocol',
      ingress({ ports: [{ protocol: 'ICMP' }] }),
      [
        'spec.ingress[0].ports[0].protocol: Unsupported value: "ICMP": supported values: "TCP", "UDP", "SCTP"',
      ],
    ],
    [
      'an endPort below the port',
      ingress({ ports: [{ port: 35000, endPort: 32000 }] }),
      ['spec.ingress[0].ports[0].endPort: Invalid value: 35000: must be greater than or equal to `port`'],
    ],
    [
      'an endPort with a named port',
      ingress({ ports: [{ port: 'http', endPort: 90 }] }),
      [
        'spec.ingress[0].ports[0].endPort: Invalid value: 90: may not be specified when `port` is non-numeric',
      ],
    ],
    [
      'an endPort without a port',
      ingress({ ports: [{ endPort: 90 }] }),
      [
        'spec.ingress[0].ports[0].endPort: Invalid value: 90: may not be specified when `port` is not specified',
      ],
    ],
    [
      'a peer of nothing',
      ingress({ from: [{}] }),
      ['spec.ingress[0].from[0]: Required value: must specify a peer'],
    ],
    [
      'an ipBlock with a selector',
      ingress({ from: [{ podSelector: {}, ipBlock: { cidr: '10.0.0.0/8' } }] }),
      ['spec.ingress[0].from[0]: Forbidden: may not specify both ipBlock and another peer'],
    ],
    [
      'an ipBlock without a cidr',
      ingress({ from: [{ ipBlock: {} }] }),
      ['spec.ingress[0].from[0].ipBlock.cidr: Required value'],
    ],
    [
      'a cidr that does not parse',
      ingress({ from: [{ ipBlock: { cidr: '192.168.5.6' } }] }),
      [
        'spec.ingress[0].from[0].ipBlock.cidr: Invalid value: "192.168.5.6": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)',
      ],
    ],
    [
      'excepts that are not strict subsets',
      ingress({
        from: [
          {
            ipBlock: {
              cidr: '192.168.8.0/24',
              except: ['192.168.9.1/24', '192.168.8.0/24', '192.168.8.128/25'],
            },
          },
        ],
      }),
      [
        'spec.ingress[0].from[0].ipBlock.except[0]: Invalid value: "192.168.9.1/24": must be a strict subset of `cidr`',
        'spec.ingress[0].from[0].ipBlock.except[1]: Invalid value: "192.168.8.0/24": must be a strict subset of `cidr`',
      ],
    ],
    [
      'a selector with a bad operator',
      { podSelector: { matchExpressions: [{ key: 'a', operator: 'Has' }] } },
      ['spec.podSelector.matchExpressions[0].operator: Invalid value: "Has": not a valid selector operator'],
    ],
    [
      'an unknown policy type',
      { podSelector: {}, policyTypes: ['Both'] },
      ['spec.policyTypes[0]: Unsupported value: "Both": supported values: "Ingress", "Egress"'],
    ],
    [
      'three policy types',
      { podSelector: {}, policyTypes: ['Ingress', 'Egress', 'Ingress'] },
      [
        'spec.policyTypes: Invalid value: ["Ingress","Egress","Ingress"]: may not specify more than two policyTypes',
      ],
    ],
  ])('%s', (_name, spec, expected) => {
    expect(causeLines(validateNetworkPolicy(object(spec)))).toEqual(expected);
  });
});
