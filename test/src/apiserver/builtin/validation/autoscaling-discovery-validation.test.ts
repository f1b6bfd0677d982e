// HorizontalPodAutoscalers and EndpointSlices, with cases from upstream's autoscaling TestValidateHorizontalPodAutoscaler/TestValidateBehavior and discovery TestValidateEndpointSlice tables.
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../../operators/types.ts';
import { validateEndpointSlice } from '../../../../../src/apiserver/builtin/validation/endpoint-slice-validation.ts';
import { validateHorizontalPodAutoscaler } from '../../../../../src/apiserver/builtin/validation/horizontal-pod-autoscaler-validation.ts';
import { causeLines } from './cause-lines.ts';

const hpa = (spec: object) =>
  ({
    metadata: { name: 'h', namespace: 'ns' },
    spec: {
      scaleTargetRef: { kind: 'ReplicationController', name: 'myrc' },
      minReplicas: 1,
      maxReplicas: 5,
      ...spec,
    },
  }) as KubeObject;
const cpu = (target: object) => ({ type: 'Resource', resource: { name: 'cpu', target } });

describe('validateHorizontalPodAutoscaler', () => {
  it.each([
    ['a CPU utilization target', { metrics: [cpu({ type: 'Utilization', averageUtilization: 70 })] }, []],
    [
      'pods, object and external metrics',
      {
        metrics: [
          {
            type: 'Pods',
            pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '100' } },
          },
          {
            type: 'Object',
            object: {
              describedObject: { kind: 'Ingress', name: 'main', apiVersion: 'networking.k8s.io/v1' },
              metric: { name: 'rps' },
              target: { type: 'Value', value: '2k' },
            },
          },
          {
            type: 'External',
            external: { metric: { name: 'queue' }, target: { type: 'AverageValue', averageValue: '30' } },
          },
        ],
      },
      [],
    ],
    [
      'behavior',
      {
        behavior: {
          scaleUp: {
            stabilizationWindowSeconds: 0,
            selectPolicy: 'Max',
            policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }],
          },
          scaleDown: { stabilizationWindowSeconds: 300 },
        },
      },
      [],
    ],
    [
      'minReplicas of 0',
      { minReplicas: 0 },
      ['spec.minReplicas: Invalid value: 0: must be greater than or equal to 1'],
    ],
    [
      'maxReplicas of 0',
      { maxReplicas: 0 },
      [
        'spec.maxReplicas: Invalid value: 0: must be greater than 0',
        'spec.maxReplicas: Invalid value: 0: must be greater than or equal to `minReplicas`',
      ],
    ],
    [
      'a target without a kind',
      { scaleTargetRef: { name: 'myrc' } },
      ['spec.scaleTargetRef.kind: Required value'],
    ],
    [
      'a target name with a slash',
      { scaleTargetRef: { kind: 'Deployment', name: 'a/b' } },
      [`spec.scaleTargetRef.name: Invalid value: "a/b": may not contain '/'`],
    ],
    [
      'a resource metric without a target value',
      { metrics: [cpu({ type: 'Utilization' })] },
      [
        'spec.metrics[0].resource.target.averageUtilization: Required value: must set either a target raw value or a target utilization',
      ],
    ],
    [
      'a resource metric with both targets',
      { metrics: [cpu({ type: 'Utilization', averageUtilization: 70, averageValue: '100m' })] },
      [
        'spec.metrics[0].resource.target.averageValue: Forbidden: may not set both a target raw value and a target utilization',
      ],
    ],
    [
      'a utilization of 0',
      { metrics: [cpu({ type: 'Utilization', averageUtilization: 0 })] },
      ['spec.metrics[0].resource.target.averageUtilization: Invalid value: 0: must be greater than 0'],
    ],
    [
      'an unknown target type',
      { metrics: [cpu({ type: 'Average', averageUtilization: 10 })] },
      [
        'spec.metrics[0].resource.target.type: Invalid value: "Average": must be either Utilization, Value, or AverageValue',
      ],
    ],
    [
      'a metric of one type carrying another source',
      {
        metrics: [{ type: 'Pods', resource: cpu({ type: 'Utilization', averageUtilization: 70 }).resource }],
      },
      ['spec.metrics[0].pods: Required value: must populate information for the given metric source'],
    ],
    [
      'a metric with two sources',
      {
        metrics: [
          {
            ...cpu({ type: 'Utilization', averageUtilization: 70 }),
            pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '1' } },
          },
        ],
      },
      ['spec.metrics[0].pods: Forbidden: must populate the given metric source only'],
    ],
    [
      'an unknown metric type',
      { metrics: [{ type: 'Custom' }] },
      [
        'spec.metrics[0].type: Unsupported value: "Custom": supported values: "ContainerResource", "External", "Object", "Pods", "Resource"',
        'spec.metrics[0].type: Unsupported value: "Custom": supported values: "ContainerResource", "External", "Object", "Pods", "Resource"',
      ],
    ],
    [
      'a pods metric without an average value',
      {
        metrics: [{ type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'Value', value: '1' } } }],
      },
      [
        'spec.metrics[0].pods.target.averageValue: Required value: must specify a positive target averageValue',
      ],
    ],
    [
      'a stabilization window too long',
      { behavior: { scaleDown: { stabilizationWindowSeconds: 3601 } } },
      [
        'spec.behavior.scaleDown.stabilizationWindowSeconds: Invalid value: 3601: must be less than or equal to 3600',
      ],
    ],
    [
      'an unknown select policy',
      { behavior: { scaleUp: { selectPolicy: 'Average' } } },
      [
        'spec.behavior.scaleUp.selectPolicy: Unsupported value: "Average": supported values: "Disabled", "Max", "Min"',
      ],
    ],
    [
      'an empty policy list',
      { behavior: { scaleUp: { policies: [] } } },
      ['spec.behavior.scaleUp.policies: Required value: must specify at least one Policy'],
    ],
    [
      'a policy of an unknown type, no value and a long period',
      { behavior: { scaleDown: { policies: [{ type: 'Nodes', periodSeconds: 1801 }] } } },
      [
        'spec.behavior.scaleDown.policies[0].type: Unsupported value: "Nodes": supported values: "Percent", "Pods"',
        'spec.behavior.scaleDown.policies[0].value: Invalid value: 0: must be greater than zero',
        'spec.behavior.scaleDown.policies[0].periodSeconds: Invalid value: 1801: must be less than or equal to 1800',
      ],
    ],
  ])('%s', (_name, spec, expected) => {
    expect(causeLines(validateHorizontalPodAutoscaler(hpa(spec)))).toEqual(expected);
  });
});

describe('validateEndpointSlice', () => {
  const slice = (fields: object) =>
    ({
      metadata: { name: 's', namespace: 'ns' },
      addressType: 'IPv4',
      endpoints: [{ addresses: ['10.1.2.3'] }],
      ports: [{ name: 'http', port: 80, protocol: 'TCP' }],
      ...fields,
    }) as KubeObject;
  it.each([
    ['an IPv4 slice', {}, []],
    [
      'an FQDN slice',
      { addressType: 'FQDN', endpoints: [{ addresses: ['foo.example.com'], hostname: 'foo' }] },
      [],
    ],
    [
      'an IPv6 slice',
      { addressType: 'IPv6', endpoints: [{ addresses: ['2001:db8::1'], nodeName: 'node-1' }] },
      [],
    ],
    ['no address type', { addressType: undefined }, ['addressType: Required value']],
    [
      'an unknown address type',
      { addressType: 'IP' },
      ['addressType: Unsupported value: "IP": supported values: "FQDN", "IPv4", "IPv6"'],
    ],
    [
      'an endpoint without addresses',
      { endpoints: [{ addresses: [] }] },
      ['endpoints[0].addresses: Required value: must contain at least 1 address'],
    ],
    [
      'an IPv6 address in an IPv4 slice',
      { endpoints: [{ addresses: ['2001:db8::1'] }] },
      ['endpoints[0].addresses[0]: Invalid value: "2001:db8::1": must be a valid IPv4 address'],
    ],
    [
      'a loopback address',
      { endpoints: [{ addresses: ['127.0.0.1'] }] },
      [
        'endpoints[0].addresses[0]: Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
      ],
    ],
    [
      'a single-label FQDN',
      { addressType: 'FQDN', endpoints: [{ addresses: ['localhost'] }] },
      [
        'endpoints[0].addresses[0]: Invalid value: "localhost": should be a domain with at least two segments separated by dots',
      ],
    ],
    [
      'a port name twice',
      {
        ports: [
          { name: 'http', port: 80 },
          { name: 'http', port: 81 },
        ],
      },
      ['ports[1].name: Duplicate value: "http"'],
    ],
    [
      'an unknown protocol',
      { ports: [{ name: 'a', protocol: 'ICMP' }] },
      ['ports[0].protocol: Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"'],
    ],
    [
      'too many endpoints',
      { endpoints: Array.from({ length: 1001 }, () => ({ addresses: ['10.0.0.1'] })) },
      ['endpoints: Too many: 1001: must have at most 1000 items'],
    ],
  ])('%s', (_name, fields, expected) => {
    expect(causeLines(validateEndpointSlice(slice(fields)))).toEqual(expected);
  });

  it('keeps the address type on update', () => {
    expect(validateEndpointSlice(slice({ endpoints: [] }), slice({}))).toEqual([]);
    expect(
      causeLines(validateEndpointSlice(slice({ addressType: 'IPv6', endpoints: [] }), slice({}))),
    ).toEqual(['addressType: Invalid value: "IPv6": field is immutable']);
  });
});
