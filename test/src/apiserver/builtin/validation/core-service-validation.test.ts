// Services, with cases from upstream's TestValidateServiceCreate and TestValidateServicePorts.
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../../operators/types.ts';
import { validateService } from '../../../../../src/apiserver/builtin/validation/core-service-validation.ts';
import { causeLines } from './cause-lines.ts';

const service = (spec: object) => ({ metadata: { name: 's' }, spec }) as KubeObject;
const port = { port: 80, targetPort: 8080, protocol: 'TCP' };

describe('validateService', () => {
  it.each([
    ['one port', { selector: { app: 'web' }, ports: [port] }, []],
    ['a named target port', { ports: [{ port: 80, targetPort: 'http' }] }, []],
    [
      'two named ports',
      {
        ports: [
          { ...port, name: 'http' },
          { port: 443, name: 'https' },
        ],
      },
      [],
    ],
    ['a headless service without ports', { clusterIP: 'None' }, []],
    ['an ExternalName service', { type: 'ExternalName', externalName: 'db.example.com' }, []],
    ['a NodePort service', { type: 'NodePort', ports: [{ ...port, nodePort: 30080 }] }, []],
    [
      'the same port over TCP and UDP',
      {
        ports: [
          { port: 53, name: 'dns' },
          { port: 53, name: 'dns-udp', protocol: 'UDP' },
        ],
      },
      [],
    ],
    ['no ports', { selector: { app: 'x' } }, ['spec.ports: Required value']],
    [
      'port 0',
      { ports: [{ port: 0 }] },
      ['spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive'],
    ],
    [
      'a target port out of range',
      { ports: [{ port: 80, targetPort: 70000 }] },
      ['spec.ports[0].targetPort: Invalid value: 70000: must be between 1 and 65535, inclusive'],
    ],
    [
      'a target port name that is not a port name',
      { ports: [{ port: 80, targetPort: 'my_port' }] },
      [
        'spec.ports[0].targetPort: Invalid value: "my_port": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
      ],
    ],
    [
      'two ports, one unnamed',
      { ports: [{ port: 80, name: 'a' }, { port: 81 }] },
      ['spec.ports[1].name: Required value'],
    ],
    [
      'two ports of one name',
      {
        ports: [
          { port: 80, name: 'a' },
          { port: 81, name: 'a' },
        ],
      },
      ['spec.ports[1].name: Duplicate value: "a"'],
    ],
    [
      'one port twice',
      {
        ports: [
          { port: 80, name: 'a' },
          { port: 80, name: 'b' },
        ],
      },
      ['spec.ports[1]: Duplicate value: {"port":80,"protocol":"TCP"}'],
    ],
    [
      'a nodePort on a ClusterIP service',
      { ports: [{ ...port, nodePort: 30080 }] },
      ["spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'"],
    ],
    [
      'one nodePort twice',
      {
        type: 'NodePort',
        ports: [
          { port: 80, name: 'a', nodePort: 30080 },
          { port: 81, name: 'b', nodePort: 30080 },
        ],
      },
      ['spec.ports[1].nodePort: Duplicate value: 30080'],
    ],
    [
      'an ExternalName service without a name',
      { type: 'ExternalName' },
      ['spec.externalName: Required value'],
    ],
    [
      'an ExternalName service with a cluster IP',
      { type: 'ExternalName', externalName: 'db', clusterIP: '10.0.0.1' },
      ['spec.clusterIPs: Forbidden: may not be set for ExternalName services'],
    ],
    [
      'a cluster IP that is not an address',
      { clusterIP: '10.0.0.300', ports: [port] },
      [
        'spec.clusterIPs[0]: Invalid value: "10.0.0.300": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
      ],
    ],
    [
      'a selector with a bad value',
      { selector: { app: '-web' }, ports: [port] },
      [
        `spec.selector: Invalid value: "-web": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character`,
      ],
    ],
    [
      'a ClientIP timeout over a day',
      {
        ports: [port],
        sessionAffinity: 'ClientIP',
        sessionAffinityConfig: { clientIP: { timeoutSeconds: 86401 } },
      },
      [
        'spec.sessionAffinityConfig.clientIP.timeoutSeconds: Invalid value: 86401: must be greater than 0 and less than 86400',
      ],
    ],
    ['dual stack', { ports: [port], ipFamilyPolicy: 'RequireDualStack', ipFamilies: ['IPv6', 'IPv4'] }, []],
    [
      'unknown and repeated families, an unknown policy',
      { ports: [port], ipFamilyPolicy: 'DualStack', ipFamilies: ['IPv4', 'IPv5', 'IPv4'] },
      [
        'spec.ipFamilies[1]: Unsupported value: "IPv5": supported values: "IPv4", "IPv6"',
        'spec.ipFamilies[2]: Duplicate value: "IPv4"',
        'spec.ipFamilies: Invalid value: ["IPv4","IPv5","IPv4"]: may specify no more than 2 IP families',
        'spec.ipFamilyPolicy: Unsupported value: "DualStack": supported values: "PreferDualStack", "RequireDualStack", "SingleStack"',
      ],
    ],
    [
      'families on an ExternalName service',
      { type: 'ExternalName', externalName: 'db', ipFamilies: ['IPv4'], ipFamilyPolicy: 'SingleStack' },
      [
        'spec.ipFamilies: Forbidden: may not be set for ExternalName services',
        'spec.ipFamilyPolicy: Forbidden: may not be set for ExternalName services',
      ],
    ],
    [
      'a load balancer class',
      { type: 'LoadBalancer', ports: [port], loadBalancerClass: 'example.com/lb' },
      [],
    ],
    [
      'load-balancer fields on a NodePort service',
      {
        type: 'NodePort',
        ports: [port],
        allocateLoadBalancerNodePorts: false,
        loadBalancerClass: 'example.com/lb',
      },
      [
        "spec.allocateLoadBalancerNodePorts: Forbidden: may only be used when `type` is 'LoadBalancer'",
        "spec.loadBalancerClass: Forbidden: may only be used when `type` is 'LoadBalancer'",
      ],
    ],
    [
      'an external traffic policy on a ClusterIP service',
      { ports: [port], externalTrafficPolicy: 'Local' },
      [
        'spec.externalTrafficPolicy: Invalid value: "Local": may only be set for externally-accessible services',
      ],
    ],
  ])('%s', (_name, spec, expected) => {
    expect(causeLines(validateService(service(spec)))).toEqual(expected);
  });
});
