// Resource descriptors the certificate controllers use: CertificateSigningRequests and SubjectAccessReviews.
import type { ResourceDescriptor } from '../../../streams/api-client.ts';

/** certificates.k8s.io/v1 CertificateSigningRequests (cluster-scoped). */
export const CERTIFICATE_SIGNING_REQUESTS: ResourceDescriptor = Object.freeze({
  group: 'certificates.k8s.io',
  version: 'v1',
  plural: 'certificatesigningrequests',
  kind: 'CertificateSigningRequest',
  namespaced: false,
});

/** authorization.k8s.io/v1 SubjectAccessReviews (create only). */
export const SUBJECT_ACCESS_REVIEWS: ResourceDescriptor = Object.freeze({
  group: 'authorization.k8s.io',
  version: 'v1',
  plural: 'subjectaccessreviews',
  kind: 'SubjectAccessReview',
  namespaced: false,
});
