// The protobuf messages of certificates/v1 (k8s.io/api), as our own rows: JSON name, field number, type, flags.
import type { MessagePackage } from '../message-table.ts';

/** certificates/v1: each message's fields (flags: r repeated, p pointer, i inline, e always in JSON, z omitted when zero, w wrapper). */
export const CERTIFICATES_V1: MessagePackage = {
  name: 'certificates/v1',
  messages: {
    CertificateSigningRequest: [
      ['metadata', 1, 'meta/v1.ObjectMeta'],
      ['spec', 2, 'CertificateSigningRequestSpec', 'e'],
      ['status', 3, 'CertificateSigningRequestStatus'],
    ],
    CertificateSigningRequestCondition: [
      ['type', 1, 'string', 'e'],
      ['status', 6, 'string', 'e'],
      ['reason', 2, 'string'],
      ['message', 3, 'string'],
      ['lastUpdateTime', 4, '@Time'],
      ['lastTransitionTime', 5, '@Time'],
    ],
    CertificateSigningRequestList: [
      ['metadata', 1, 'meta/v1.ListMeta'],
      ['items', 2, 'CertificateSigningRequest', 're'],
    ],
    CertificateSigningRequestSpec: [
      ['request', 1, 'bytes', 'e'],
      ['signerName', 7, 'string', 'e'],
      ['expirationSeconds', 8, 'int32', 'p'],
      ['usages', 5, 'string', 'r'],
      ['username', 2, 'string'],
      ['uid', 3, 'string'],
      ['groups', 4, 'string', 'r'],
      ['extra', 6, 'map<string,ExtraValue>'],
    ],
    CertificateSigningRequestStatus: [
      ['conditions', 1, 'CertificateSigningRequestCondition', 'r'],
      ['certificate', 2, 'bytes'],
    ],
    ClusterTrustBundle: [
      ['metadata', 1, 'meta/v1.ObjectMeta'],
      ['spec', 2, 'ClusterTrustBundleSpec', 'e'],
    ],
    ClusterTrustBundleList: [
      ['metadata', 1, 'meta/v1.ListMeta'],
      ['items', 2, 'ClusterTrustBundle', 're'],
    ],
    ClusterTrustBundleSpec: [
      ['signerName', 1, 'string'],
      ['trustBundle', 2, 'string', 'e'],
    ],
    ExtraValue: [['items', 1, 'string', 'rw']],
    PodCertificateRequest: [
      ['metadata', 1, 'meta/v1.ObjectMeta'],
      ['spec', 2, 'PodCertificateRequestSpec', 'e'],
      ['status', 3, 'PodCertificateRequestStatus'],
    ],
    PodCertificateRequestList: [
      ['metadata', 1, 'meta/v1.ListMeta'],
      ['items', 2, 'PodCertificateRequest', 're'],
    ],
    PodCertificateRequestSpec: [
      ['signerName', 1, 'string', 'e'],
      ['podName', 2, 'string', 'e'],
      ['podUID', 3, 'string', 'e'],
      ['serviceAccountName', 4, 'string', 'e'],
      ['serviceAccountUID', 5, 'string', 'e'],
      ['nodeName', 6, 'string', 'e'],
      ['nodeUID', 7, 'string', 'e'],
      ['maxExpirationSeconds', 8, 'int32', 'p'],
      ['stubPKCS10Request', 12, 'bytes', 'e'],
      ['unverifiedUserAnnotations', 11, 'map<string,string>'],
    ],
    PodCertificateRequestStatus: [
      ['conditions', 1, 'meta/v1.Condition', 'r'],
      ['certificateChain', 2, 'string'],
      ['notBefore', 4, '@Time', 'p'],
      ['beginRefreshAt', 5, '@Time', 'p'],
      ['notAfter', 6, '@Time', 'p'],
    ],
  },
};
