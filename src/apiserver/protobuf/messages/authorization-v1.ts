// The protobuf messages of authorization/v1 (k8s.io/api), as our own rows: JSON name, field number, type, flags.
import type { MessagePackage } from '../message-table.ts';

/** authorization/v1: each message's fields (flags: r repeated, p pointer, i inline, e always in JSON, z omitted when zero, w wrapper). */
export const AUTHORIZATION_V1: MessagePackage = {
  name: 'authorization/v1',
  messages: {
    ExtraValue: [['items', 1, 'string', 'rw']],
    FieldSelectorAttributes: [
      ['rawSelector', 1, 'string'],
      ['requirements', 2, 'meta/v1.FieldSelectorRequirement', 'r'],
    ],
    LabelSelectorAttributes: [
      ['rawSelector', 1, 'string'],
      ['requirements', 2, 'meta/v1.LabelSelectorRequirement', 'r'],
    ],
    LocalSubjectAccessReview: [
      ['metadata', 1, 'meta/v1.ObjectMeta'],
      ['spec', 2, 'SubjectAccessReviewSpec', 'e'],
      ['status', 3, 'SubjectAccessReviewStatus'],
    ],
    NonResourceAttributes: [
      ['path', 1, 'string'],
      ['verb', 2, 'string'],
    ],
    NonResourceRule: [
      ['verbs', 1, 'string', 're'],
      ['nonResourceURLs', 2, 'string', 'r'],
    ],
    ResourceAttributes: [
      ['namespace', 1, 'string'],
      ['verb', 2, 'string'],
      ['group', 3, 'string'],
      ['version', 4, 'string'],
      ['resource', 5, 'string'],
      ['subresource', 6, 'string'],
      ['name', 7, 'string'],
      ['fieldSelector', 8, 'FieldSelectorAttributes', 'p'],
      ['labelSelector', 9, 'LabelSelectorAttributes', 'p'],
    ],
    ResourceRule: [
      ['verbs', 1, 'string', 're'],
      ['apiGroups', 2, 'string', 'r'],
      ['resources', 3, 'string', 'r'],
      ['resourceNames', 4, 'string', 'r'],
    ],
    SelfSubjectAccessReview: [
      ['metadata', 1, 'meta/v1.ObjectMeta'],
      ['spec', 2, 'SelfSubjectAccessReviewSpec', 'e'],
      ['status', 3, 'SubjectAccessReviewStatus'],
    ],
    SelfSubjectAccessReviewSpec: [
      ['resourceAttributes', 1, 'ResourceAttributes', 'p'],
      ['nonResourceAttributes', 2, 'NonResourceAttributes', 'p'],
    ],
    SelfSubjectRulesReview: [
      ['metadata', 1, 'meta/v1.ObjectMeta'],
      ['spec', 2, 'SelfSubjectRulesReviewSpec', 'e'],
      ['status', 3, 'SubjectRulesReviewStatus'],
    ],
    SelfSubjectRulesReviewSpec: [['namespace', 1, 'string']],
    SubjectAccessReview: [
      ['metadata', 1, 'meta/v1.ObjectMeta'],
      ['spec', 2, 'SubjectAccessReviewSpec', 'e'],
      ['status', 3, 'SubjectAccessReviewStatus'],
    ],
    SubjectAccessReviewSpec: [
      ['resourceAttributes', 1, 'ResourceAttributes', 'p'],
      ['nonResourceAttributes', 2, 'NonResourceAttributes', 'p'],
      ['user', 3, 'string'],
      ['groups', 4, 'string', 'r'],
      ['extra', 5, 'map<string,ExtraValue>'],
      ['uid', 6, 'string'],
    ],
    SubjectAccessReviewStatus: [
      ['allowed', 1, 'bool', 'e'],
      ['denied', 4, 'bool'],
      ['reason', 2, 'string'],
      ['evaluationError', 3, 'string'],
    ],
    SubjectRulesReviewStatus: [
      ['resourceRules', 1, 'ResourceRule', 're'],
      ['nonResourceRules', 2, 'NonResourceRule', 're'],
      ['incomplete', 3, 'bool', 'e'],
      ['evaluationError', 4, 'string'],
    ],
  },
};
