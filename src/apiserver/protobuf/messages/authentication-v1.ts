// The protobuf messages of authentication/v1 (k8s.io/api), as our own rows: JSON name, field number, type, flags.
import type { MessagePackage } from '../message-table.ts';

/** authentication/v1: each message's fields (flags: r repeated, p pointer, i inline, e always in JSON, z omitted when zero, w wrapper). */
export const AUTHENTICATION_V1: MessagePackage = {
  name: 'authentication/v1',
  messages: {
    AttestationValue: [['items', 1, 'string', 'rw']],
    BoundObjectReference: [
      ['kind', 1, 'string'],
      ['apiVersion', 2, 'string'],
      ['name', 3, 'string'],
      ['uid', 4, 'string'],
    ],
    ExtraValue: [['items', 1, 'string', 'rw']],
    SelfSubjectReview: [
      ['metadata', 1, 'meta/v1.ObjectMeta'],
      ['status', 2, 'SelfSubjectReviewStatus'],
    ],
    SelfSubjectReviewStatus: [['userInfo', 1, 'UserInfo']],
    TokenRequest: [
      ['metadata', 1, 'meta/v1.ObjectMeta'],
      ['spec', 2, 'TokenRequestSpec', 'e'],
      ['status', 3, 'TokenRequestStatus'],
    ],
    TokenRequestSpec: [
      ['audiences', 1, 'string', 're'],
      ['expirationSeconds', 4, 'int64', 'pe'],
      ['boundObjectRef', 3, 'BoundObjectReference', 'pe'],
      ['attestations', 5, 'map<string,AttestationValue>'],
    ],
    TokenRequestStatus: [
      ['token', 1, 'string', 'e'],
      ['expirationTimestamp', 2, '@Time', 'e'],
    ],
    TokenReview: [
      ['metadata', 1, 'meta/v1.ObjectMeta'],
      ['spec', 2, 'TokenReviewSpec', 'e'],
      ['status', 3, 'TokenReviewStatus'],
    ],
    TokenReviewSpec: [
      ['token', 1, 'string'],
      ['audiences', 2, 'string', 'r'],
    ],
    TokenReviewStatus: [
      ['authenticated', 1, 'bool'],
      ['user', 2, 'UserInfo'],
      ['audiences', 4, 'string', 'r'],
      ['error', 3, 'string'],
    ],
    UserInfo: [
      ['username', 1, 'string'],
      ['uid', 2, 'string'],
      ['groups', 3, 'string', 'r'],
      ['extra', 4, 'map<string,ExtraValue>'],
    ],
  },
};
