// rootCAConfigMapAction: what the root-ca-cert-publisher must write to a namespace's kube-root-ca.crt, given what is there.
import type { KubeObject } from '../../../operators/types.ts';

/** The ConfigMap every namespace gets. */
export const ROOT_CA_CONFIG_MAP_NAME = 'kube-root-ca.crt';
/** The annotation that says what the ConfigMap is for. */
export const DESCRIPTION_ANNOTATION = 'kubernetes.io/description';
/** Upstream's description, word for word. */
export const DESCRIPTION =
  'Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. ' +
  'No other usage is guaranteed across distributions of Kubernetes clusters.';

/** A ConfigMap as the publisher reads and writes it. */
export interface ConfigMap extends KubeObject {
  data?: Record<string, string>;
  binaryData?: Record<string, string>;
}

/** Create it, update it, or leave it. */
export type RootCAAction =
  | { type: 'create'; configMap: ConfigMap }
  | { type: 'update'; configMap: ConfigMap }
  | { type: 'none' };

function sameData(a: Record<string, string> | undefined, b: Record<string, string>): boolean {
  const keys = Object.keys(a ?? {});
  return keys.length === Object.keys(b).length && keys.every((k) => a?.[k] === b[k]);
}

/**
 * The publisher's sync of one namespace (syncNamespace): a missing ConfigMap is created with `ca.crt`
 * and the description annotation; one whose data is not exactly `{ca.crt: rootCA}` or that lacks the
 * annotation is updated (other annotations, labels and fields kept); otherwise nothing.
 *
 * @param namespace the namespace
 * @param current its kube-root-ca.crt as the informer has it, if any
 * @param rootCA the CA bundle (PEM)
 * @returns the write to make
 */
export function rootCAConfigMapAction(
  namespace: string,
  current: ConfigMap | undefined,
  rootCA: string,
): RootCAAction {
  const data = { 'ca.crt': rootCA };
  if (!current) {
    return {
      type: 'create',
      configMap: {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: {
          name: ROOT_CA_CONFIG_MAP_NAME,
          namespace,
          annotations: { [DESCRIPTION_ANNOTATION]: DESCRIPTION },
        },
        data,
      },
    };
  }
  if (sameData(current.data, data) && current.metadata?.annotations?.[DESCRIPTION_ANNOTATION]) {
    return { type: 'none' };
  }
  return {
    type: 'update',
    configMap: {
      ...current,
      metadata: {
        ...current.metadata,
        annotations: { ...(current.metadata?.annotations ?? {}), [DESCRIPTION_ANNOTATION]: DESCRIPTION },
      },
      data,
    },
  };
}
