// rootCAFromKubeconfig: the cluster CA (PEM) a kubeconfig carries, as the root CA bundle to publish.
import { load } from 'js-yaml';
import { InvalidInputError } from '../../../operators/errors.ts';

interface KubeconfigShape {
  'current-context'?: string;
  contexts?: { name?: string; context?: { cluster?: string } }[];
  clusters?: { name?: string; cluster?: { 'certificate-authority-data'?: string } }[];
}

/**
 * The current context's cluster `certificate-authority-data`, decoded (kube-controller-manager takes
 * it from `--root-ca-file`; `kube-rx up` from the embedded API server's kubeconfig).
 *
 * @param yaml the kubeconfig's text
 * @returns the PEM bundle
 * @throws InvalidInputError naming `clusters[].cluster.certificate-authority-data` when there is none
 */
export function rootCAFromKubeconfig(yaml: string): string {
  const config = (load(yaml) ?? {}) as KubeconfigShape;
  const contextName = config['current-context'];
  const clusterName = config.contexts?.find((c) => c.name === contextName)?.context?.cluster;
  const cluster = config.clusters?.find((c) => c.name === clusterName) ?? config.clusters?.[0];
  const data = cluster?.cluster?.['certificate-authority-data'];
  if (!data)
    throw new InvalidInputError(
      'kubeconfig',
      'clusters[].cluster.certificate-authority-data',
      'the cluster has no CA to publish',
    );
  return Buffer.from(data, 'base64').toString('utf8');
}
