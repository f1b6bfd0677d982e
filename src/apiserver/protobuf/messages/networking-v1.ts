// The protobuf messages of networking/v1 (k8s.io/api), as our own rows: JSON name, field number, type, flags.
import type { MessagePackage } from '../message-table.ts';

/** networking/v1: each message's fields (flags: r repeated, p pointer, i inline, e always in JSON, z omitted when zero, w wrapper). */
export const NETWORKING_V1: MessagePackage = {
  name: 'networking/v1',
  messages: {
    HTTPIngressPath: [
      ['path', 1, 'string'],
      ['pathType', 3, 'string', 'pe'],
      ['backend', 2, 'IngressBackend', 'e'],
    ],
    HTTPIngressRuleValue: [['paths', 1, 'HTTPIngressPath', 're']],
    IPAddress: [
      ['metadata', 1, 'meta/v1.ObjectMeta'],
      ['spec', 2, 'IPAddressSpec'],
    ],
    IPAddressList: [
      ['metadata', 1, 'meta/v1.ListMeta'],
      ['items', 2, 'IPAddress', 're'],
    ],
    IPAddressSpec: [['parentRef', 1, 'ParentReference', 'p']],
    IPBlock: [
      ['cidr', 1, 'string', 'e'],
      ['except', 2, 'string', 'r'],
    ],
    Ingress: [
      ['metadata', 1, 'meta/v1.ObjectMeta'],
      ['spec', 2, 'IngressSpec'],
      ['status', 3, 'IngressStatus'],
    ],
    IngressBackend: [
      ['service', 4, 'IngressServiceBackend', 'p'],
      ['resource', 3, 'core/v1.TypedLocalObjectReference', 'p'],
    ],
    IngressClass: [
      ['metadata', 1, 'meta/v1.ObjectMeta'],
      ['spec', 2, 'IngressClassSpec'],
    ],
    IngressClassList: [
      ['metadata', 1, 'meta/v1.ListMeta'],
      ['items', 2, 'IngressClass', 're'],
    ],
    IngressClassParametersReference: [
      ['apiGroup', 1, 'string', 'p'],
      ['kind', 2, 'string', 'e'],
      ['name', 3, 'string', 'e'],
      ['scope', 4, 'string', 'pe'],
      ['namespace', 5, 'string', 'p'],
    ],
    IngressClassSpec: [
      ['controller', 1, 'string'],
      ['parameters', 2, 'IngressClassParametersReference', 'p'],
    ],
    IngressList: [
      ['metadata', 1, 'meta/v1.ListMeta'],
      ['items', 2, 'Ingress', 're'],
    ],
    IngressLoadBalancerIngress: [
      ['ip', 1, 'string'],
      ['hostname', 2, 'string'],
      ['ports', 4, 'IngressPortStatus', 'r'],
    ],
    IngressLoadBalancerStatus: [['ingress', 1, 'IngressLoadBalancerIngress', 'r']],
    IngressPortStatus: [
      ['port', 1, 'int32', 'e'],
      ['protocol', 2, 'string', 'e'],
      ['error', 3, 'string', 'p'],
    ],
    IngressRule: [
      ['host', 1, 'string'],
      ['ingressRuleValue', 2, 'IngressRuleValue', 'i'],
    ],
    IngressRuleValue: [['http', 1, 'HTTPIngressRuleValue', 'p']],
    IngressServiceBackend: [
      ['name', 1, 'string', 'e'],
      ['port', 2, 'ServiceBackendPort'],
    ],
    IngressSpec: [
      ['ingressClassName', 4, 'string', 'p'],
      ['defaultBackend', 1, 'IngressBackend', 'p'],
      ['tls', 2, 'IngressTLS', 'r'],
      ['rules', 3, 'IngressRule', 'r'],
    ],
    IngressStatus: [['loadBalancer', 1, 'IngressLoadBalancerStatus']],
    IngressTLS: [
      ['hosts', 1, 'string', 'r'],
      ['secretName', 2, 'string'],
    ],
    NetworkPolicy: [
      ['metadata', 1, 'meta/v1.ObjectMeta'],
      ['spec', 2, 'NetworkPolicySpec'],
    ],
    NetworkPolicyEgressRule: [
      ['ports', 1, 'NetworkPolicyPort', 'r'],
      ['to', 2, 'NetworkPolicyPeer', 'r'],
    ],
    NetworkPolicyIngressRule: [
      ['ports', 1, 'NetworkPolicyPort', 'r'],
      ['from', 2, 'NetworkPolicyPeer', 'r'],
    ],
    NetworkPolicyList: [
      ['metadata', 1, 'meta/v1.ListMeta'],
      ['items', 2, 'NetworkPolicy', 're'],
    ],
    NetworkPolicyPeer: [
      ['podSelector', 1, 'meta/v1.LabelSelector', 'p'],
      ['namespaceSelector', 2, 'meta/v1.LabelSelector', 'p'],
      ['ipBlock', 3, 'IPBlock', 'p'],
    ],
    NetworkPolicyPort: [
      ['protocol', 1, 'string', 'p'],
      ['port', 2, '@IntOrString', 'p'],
      ['endPort', 3, 'int32', 'p'],
    ],
    NetworkPolicySpec: [
      ['podSelector', 1, 'meta/v1.LabelSelector', 'e'],
      ['ingress', 2, 'NetworkPolicyIngressRule', 'r'],
      ['egress', 3, 'NetworkPolicyEgressRule', 'r'],
      ['policyTypes', 4, 'string', 'r'],
    ],
    ParentReference: [
      ['group', 1, 'string'],
      ['resource', 2, 'string'],
      ['namespace', 3, 'string'],
      ['name', 4, 'string'],
    ],
    ServiceBackendPort: [
      ['name', 1, 'string'],
      ['number', 2, 'int32'],
    ],
    ServiceCIDR: [
      ['metadata', 1, 'meta/v1.ObjectMeta'],
      ['spec', 2, 'ServiceCIDRSpec'],
      ['status', 3, 'ServiceCIDRStatus'],
    ],
    ServiceCIDRList: [
      ['metadata', 1, 'meta/v1.ListMeta'],
      ['items', 2, 'ServiceCIDR', 're'],
    ],
    ServiceCIDRSpec: [['cidrs', 1, 'string', 'r']],
    ServiceCIDRStatus: [['conditions', 1, 'meta/v1.Condition', 'r']],
  },
};
