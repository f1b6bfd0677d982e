// The protobuf messages of rbac/v1 (k8s.io/api), as our own rows: JSON name, field number, type, flags.
import type { MessagePackage } from '../message-table.ts';

/** rbac/v1: each message's fields (flags: r repeated, p pointer, i inline, e always in JSON, z omitted when zero, w wrapper). */
export const RBAC_V1: MessagePackage = {
  name: 'rbac/v1',
  messages: {
    AggregationRule: [['clusterRoleSelectors', 1, 'meta/v1.LabelSelector', 'r']],
    ClusterRole: [
      ['metadata', 1, 'meta/v1.ObjectMeta'],
      ['rules', 2, 'PolicyRule', 're'],
      ['aggregationRule', 3, 'AggregationRule', 'p'],
    ],
    ClusterRoleBinding: [
      ['metadata', 1, 'meta/v1.ObjectMeta'],
      ['subjects', 2, 'Subject', 'r'],
      ['roleRef', 3, 'RoleRef', 'e'],
    ],
    ClusterRoleBindingList: [
      ['metadata', 1, 'meta/v1.ListMeta'],
      ['items', 2, 'ClusterRoleBinding', 're'],
    ],
    ClusterRoleList: [
      ['metadata', 1, 'meta/v1.ListMeta'],
      ['items', 2, 'ClusterRole', 're'],
    ],
    PolicyRule: [
      ['verbs', 1, 'string', 're'],
      ['apiGroups', 2, 'string', 'r'],
      ['resources', 3, 'string', 'r'],
      ['resourceNames', 4, 'string', 'r'],
      ['nonResourceURLs', 5, 'string', 'r'],
    ],
    Role: [
      ['metadata', 1, 'meta/v1.ObjectMeta'],
      ['rules', 2, 'PolicyRule', 're'],
    ],
    RoleBinding: [
      ['metadata', 1, 'meta/v1.ObjectMeta'],
      ['subjects', 2, 'Subject', 'r'],
      ['roleRef', 3, 'RoleRef', 'e'],
    ],
    RoleBindingList: [
      ['metadata', 1, 'meta/v1.ListMeta'],
      ['items', 2, 'RoleBinding', 're'],
    ],
    RoleList: [
      ['metadata', 1, 'meta/v1.ListMeta'],
      ['items', 2, 'Role', 're'],
    ],
    RoleRef: [
      ['apiGroup', 1, 'string', 'e'],
      ['kind', 2, 'string', 'e'],
      ['name', 3, 'string', 'e'],
    ],
    Subject: [
      ['kind', 1, 'string', 'e'],
      ['apiGroup', 2, 'string'],
      ['name', 3, 'string', 'e'],
      ['namespace', 4, 'string'],
    ],
  },
};
