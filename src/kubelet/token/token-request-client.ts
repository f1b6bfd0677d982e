// tokenRequestClient: POST serviceaccounts/NAME/token through the ApiClient port, for the kubelet's token manager.
import { firstValueFrom } from 'rxjs';
import { ApiError } from '../../../operators/errors.ts';
import type { KubeObject } from '../../../operators/types.ts';
import type { ApiClient, ResourceDescriptor } from '../../../streams/api-client.ts';
import type { GetToken, TokenRequest } from './token-manager.ts';

/** The `token` subresource of one ServiceAccount, as a resource the ApiClient can create in. */
function tokenSubresource(name: string): ResourceDescriptor {
  return {
    group: '',
    version: 'v1',
    plural: `serviceaccounts/${encodeURIComponent(name)}/token`,
    kind: 'TokenRequest',
    namespaced: true,
  };
}

/**
 * Requests tokens from the API server. A 404 names the missing service account as the API server
 * does; with no client (a standalone kubelet) every request fails with upstream's words.
 *
 * @param client the kubelet's API client
 * @returns the getter the token manager calls
 */
export function tokenRequestClient(client: ApiClient | undefined): GetToken {
  return async (namespace, name, request) => {
    if (!client) throw new Error('cannot use TokenManager when kubelet is in standalone mode');
    const body = {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      metadata: { name, namespace },
      spec: request.spec,
    };
    try {
      const answer = await firstValueFrom(
        client.create(tokenSubresource(name), body as unknown as KubeObject, { namespace }),
      );
      return answer as unknown as TokenRequest;
    } catch (error) {
      // the API server's own words (`serviceaccounts "x" not found`), not the client's wrapping
      if (error instanceof ApiError && error.status.message) throw new Error(error.status.message);
      throw error;
    }
  };
}
