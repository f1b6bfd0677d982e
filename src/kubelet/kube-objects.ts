// kubeObjectReader: the ConfigMaps and Secrets a pod's env and volumes read, fetched from the API server.
import { firstValueFrom } from 'rxjs';
import { ApiError } from '../../operators/errors.ts';
import type { KeyValueSource } from '../../operators/kubelet/make-environment-variables.ts';
import type { KubeObject } from '../../operators/types.ts';
import type { ApiClient } from '../../streams/api-client.ts';
import { CONFIG_MAPS, SECRETS } from '../../streams/resources.ts';

/** Reads ConfigMaps and Secrets; `undefined` when the API server does not have one. */
export interface KubeObjectReader {
  configMap(namespace: string, name: string): Promise<KeyValueSource | undefined>;
  /** Secret data decoded from base64. */
  secret(namespace: string, name: string): Promise<KeyValueSource | undefined>;
}

interface DataObject extends KubeObject {
  data?: Record<string, string>;
  binaryData?: Record<string, string>;
  stringData?: Record<string, string>;
}

/**
 * A reader over an ApiClient: 404 is `undefined`, other errors reject (the sync is retried).
 *
 * @param client the API client (undefined: every object is missing, as for a kubelet without one)
 * @returns the reader
 */
export function kubeObjectReader(client: ApiClient | undefined): KubeObjectReader {
  const get = async (resource: typeof CONFIG_MAPS, namespace: string, name: string) => {
    if (!client) return undefined;
    try {
      return await firstValueFrom(client.get<DataObject>(resource, name, { namespace }));
    } catch (error) {
      if (error instanceof ApiError && error.statusCode === 404) return undefined;
      throw error;
    }
  };
  return {
    async configMap(namespace, name) {
      const cm = await get(CONFIG_MAPS, namespace, name);
      if (!cm) return undefined;
      const data: Record<string, string> = { ...(cm.data ?? {}) };
      for (const [k, v] of Object.entries(cm.binaryData ?? {}))
        data[k] = Buffer.from(v, 'base64').toString('latin1');
      return { data };
    },
    async secret(namespace, name) {
      const secret = await get(SECRETS, namespace, name);
      if (!secret) return undefined;
      const data: Record<string, string> = {};
      for (const [k, v] of Object.entries(secret.data ?? {}))
        data[k] = Buffer.from(v, 'base64').toString('utf8');
      for (const [k, v] of Object.entries(secret.stringData ?? {})) data[k] = v;
      return { data };
    },
  };
}
