// Creates the two system PriorityClasses when the API server lacks them (kube-apiserver does it at start; the embedded one does not yet).
import { catchError, firstValueFrom, forkJoin, of } from 'rxjs';
import type { Logger } from '../../operators/logger.ts';
import type { ApiClient } from '../../streams/api-client.ts';
import { PRIORITY_CLASSES } from '../../streams/resources.ts';
import { SYSTEM_PRIORITY_CLASSES } from './priority-resolver.ts';

/**
 * Creates system-node-critical (2000001000) and system-cluster-critical (2000000000); one that exists
 * already (409) or cannot be created is left as it is (logged at debug).
 * @param client the API client
 * @param logger where failures are logged
 */
export async function ensureSystemPriorityClasses(client: ApiClient, logger?: Logger): Promise<void> {
  await firstValueFrom(
    forkJoin(
      SYSTEM_PRIORITY_CLASSES.map((pc) =>
        client.create(PRIORITY_CLASSES, structuredClone(pc)).pipe(
          catchError((error: unknown) => {
            logger?.debug(
              { name: pc.metadata?.name, err: String(error) },
              'system priority class not created',
            );
            return of(undefined);
          }),
        ),
      ),
    ),
  );
}
