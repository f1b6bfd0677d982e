// The kubeconfig that points kubectl and @kubernetes/client-node at the embedded API server.
import { stringify } from 'yaml';

/** The placeholder token in the kubeconfig of a server that checks none. */
export const ANONYMOUS_TOKEN = 'kube-rx-no-auth';

/** What the kubeconfig carries. */
export interface KubeconfigInput {
  url: string;
  /** CA certificate (PEM); omitted for plain HTTP. */
  caPem?: string;
  token?: string;
  /** Name of the cluster, user and context; default `kube-rx`. */
  name?: string;
}

/**
 * A kubeconfig YAML text with one cluster, one user and one current context.
 * @returns the YAML text
 */
export function kubeconfigYaml(input: KubeconfigInput): string {
  const name = input.name ?? 'kube-rx';
  const cluster: Record<string, string> = { server: input.url };
  if (input.caPem) cluster['certificate-authority-data'] = Buffer.from(input.caPem).toString('base64');
  // kubectl prompts for a password when a user has no credential at all, so an open server's
  // kubeconfig carries a placeholder token that the server ignores.
  const user: Record<string, string> = { token: input.token ?? ANONYMOUS_TOKEN };
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name, cluster }],
    users: [{ name, user }],
    contexts: [{ name, context: { cluster: name, user: name, namespace: 'default' } }],
    'current-context': name,
    preferences: {},
  });
}
