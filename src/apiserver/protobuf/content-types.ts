// The media types of Kubernetes' protobuf encoding, as kube-apiserver names them.

/** A protobuf request or response body. */
export const PROTOBUF_CONTENT_TYPE = 'application/vnd.kubernetes.protobuf';

/** A protobuf watch response: length-prefixed frames. */
export const PROTOBUF_WATCH_CONTENT_TYPE = 'application/vnd.kubernetes.protobuf;stream=watch';
