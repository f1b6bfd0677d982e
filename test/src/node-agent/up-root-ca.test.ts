// kube-rx up runs the root CA publisher: kube-root-ca.crt holds the embedded API server's CA in every namespace.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { firstValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../operators/types.ts';
import { rootCAFromKubeconfig } from '../../../src/controllers/root-ca-cert-publisher/root-ca-from-kubeconfig.ts';
import { upCommand } from '../../../src/node-agent/up-command.ts';
import { kubeApiClient } from '../../../streams/client-node/kube-api-client.ts';
import { CONFIG_MAPS, NAMESPACES } from '../../../streams/resources.ts';

describe('kube-rx up: root CA publisher', () => {
  it('publishes kube-root-ca.crt into existing and new namespaces', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kube-rx-up-rootca-'));
    const lines: string[] = [];
    let stop!: () => void;
    const signals = {
      on: (_s: string, fn: () => void) => {
        stop = fn;
      },
      off: () => {},
    };
    const kubeconfig = join(dir, 'kubeconfig');
    const done = upCommand({ stdout: { write: (l: string) => lines.push(l) }, signals }).parseAsync(
      [
        '--port',
        '0',
        '--health-port',
        '0',
        '--kubelet-port',
        '0',
        '--node-name',
        'rootca-node',
        '--kubeconfig-out',
        kubeconfig,
      ],
      { from: 'user' },
    );
    const api = { close: () => {} } as { close(): void };
    try {
      for (let i = 0; i < 300 && lines.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
      const yaml = await readFile(kubeconfig, 'utf8');
      const client = kubeApiClient({ kubeConfig: { from: 'string', yaml } });
      api.close = () => client.close();
      await firstValueFrom(
        client.create(NAMESPACES, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'fresh' } }),
      );
      const ca = rootCAFromKubeconfig(yaml);
      for (const namespace of ['default', 'kube-system', 'fresh']) {
        let data: Record<string, string> | undefined;
        for (let i = 0; i < 200 && !data; i++) {
          data = await firstValueFrom(
            client.get<{ data?: Record<string, string> } & KubeObject>(CONFIG_MAPS, 'kube-root-ca.crt', {
              namespace,
            }),
          ).then(
            (cm) => cm.data,
            () => undefined,
          );
          if (!data) await new Promise((r) => setTimeout(r, 50));
        }
        expect(data).toEqual({ 'ca.crt': ca });
      }
    } finally {
      api.close();
      stop?.();
      await done.catch(() => {});
      await rm(dir, { recursive: true, force: true });
    }
  }, 40_000);
});
