// Test fixture: the embedded API server with a kubeApiClient connected to it through the server's own kubeconfig.
import { afterAll, beforeAll } from 'vitest';
import { type ApiServerOptions, type RunningApiServer, startApiServer } from '../../src/apiserver/index.ts';
import {
  type KubeApiClient,
  type KubeApiClientConfig,
  kubeApiClient,
} from '../../streams/client-node/kube-api-client.ts';

/** A running embedded API server and a client talking to it over HTTPS. */
export interface EmbeddedCluster {
  server: RunningApiServer;
  api: KubeApiClient;
  /** Closes the client, then the server. */
  close(): Promise<void>;
}

/** Client settings other than the kubeconfig, which always comes from the server. */
export type EmbeddedClientConfig = Omit<KubeApiClientConfig, 'kubeConfig'>;

/**
 * Starts the embedded API server and connects a kubeApiClient to it. Writes are not rate limited
 * (`qps: Infinity`) unless `client` says otherwise, so tests are not paced by client-go's 5 qps.
 *
 * @param options the server's options
 * @param client the client's options, kubeconfig excepted
 * @returns the server, the client and one `close()` for both
 */
export async function embeddedCluster(
  options: ApiServerOptions = {},
  client: EmbeddedClientConfig = {},
): Promise<EmbeddedCluster> {
  const server = await startApiServer(options);
  let api: KubeApiClient;
  try {
    api = kubeApiClient({
      kubeConfig: { from: 'string', yaml: server.kubeconfig },
      qps: Number.POSITIVE_INFINITY,
      ...client,
    });
  } catch (error) {
    await server.close();
    throw error;
  }
  return {
    server,
    api,
    async close() {
      api.close();
      await server.close();
    },
  };
}

/**
 * Registers `beforeAll`/`afterAll` hooks in the current suite that start an embedded cluster and close it.
 * The returned object's `server` and `api` are set once the `beforeAll` hook has run, so read them inside
 * tests and hooks, not at collection time.
 *
 * @param options the server's options
 * @param client the client's options, kubeconfig excepted
 * @returns a holder filled before the suite's tests run
 */
export function useEmbeddedCluster(
  options: ApiServerOptions = {},
  client: EmbeddedClientConfig = {},
): Omit<EmbeddedCluster, 'close'> {
  const holder = {} as EmbeddedCluster;
  beforeAll(async () => {
    Object.assign(holder, await embeddedCluster(options, client));
  });
  afterAll(async () => {
    await holder.close?.();
  });
  return holder;
}
