// kubeConfigSource: the cluster a component talks to, from its --kubeconfig and --master flags.
import { readFile } from 'node:fs/promises';
import { parse, stringify } from 'yaml';
import type { KubeConfigSource } from '../../streams/client-node/kube-config.ts';

/** The cluster to talk to: --kubeconfig (server replaced by --master), --master alone, or none (embedded). */
export async function kubeConfigSource(
  kubeconfig: string | undefined,
  master: string | undefined,
): Promise<KubeConfigSource | undefined> {
  if (kubeconfig && !master) return { from: 'file', path: kubeconfig };
  if (kubeconfig && master) {
    const doc = parse(await readFile(kubeconfig, 'utf8')) as {
      clusters?: { cluster?: { server?: string } }[];
    };
    for (const c of doc.clusters ?? []) if (c.cluster) c.cluster.server = master;
    return { from: 'string', yaml: stringify(doc) };
  }
  if (master) {
    const yaml = stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [
        {
          name: 'master',
          cluster: { server: master, 'insecure-skip-tls-verify': master.startsWith('https:') },
        },
      ],
      users: [{ name: 'anonymous', user: {} }],
      contexts: [{ name: 'master', context: { cluster: 'master', user: 'anonymous' } }],
      'current-context': 'master',
    });
    return { from: 'string', yaml };
  }
  return undefined;
}
