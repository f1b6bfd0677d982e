// tokenCleanerController: kube-controller-manager's token-cleaner-controller — expired bootstrap token secrets in kube-system deleted, each looked at again when it expires.
import {
  asyncScheduler,
  first,
  firstValueFrom,
  NEVER,
  type Observable,
  type SchedulerLike,
  switchMap,
} from 'rxjs';
import {
  BOOTSTRAP_TOKEN_NAMESPACE,
  type BootstrapTokenSecret,
  SECRET_TYPE_BOOTSTRAP_TOKEN,
  tokenExpiration,
} from '../../../operators/controller/bootstrap/bootstrap-token.ts';
import { ApiError } from '../../../operators/errors.ts';
import { type Logger, silentLogger } from '../../../operators/logger.ts';
import { type ReconcileOutcome, reconcileWith } from '../../../operators/reconcile.ts';
import { workQueue } from '../../../operators/work-queue.ts';
import type { WorkQueueMetricsProvider } from '../../../operators/work-queue-metrics.ts';
import type { ApiClient } from '../../../streams/api-client.ts';
import { SECRETS } from '../../../streams/resources.ts';
import type { InformerFactory } from '../../informers/informer-factory.ts';

/** The controller's name in `--controllers` (off by default, as upstream's). */
export const TOKEN_CLEANER_CONTROLLER_NAME = 'token-cleaner-controller';

/** Settings of {@link tokenCleanerController}. */
export interface TokenCleanerControllerConfig {
  client: ApiClient;
  informerFactory: InformerFactory;
  metrics?: WorkQueueMetricsProvider;
  scheduler?: SchedulerLike;
  logger?: Logger;
}

/**
 * Runs the token cleaner while subscribed: each bootstrap token secret in kube-system added or updated is
 * looked at; an expired one (or one whose `expiration` does not parse) is deleted with its UID as a
 * precondition (NotFound and Conflict are done); one that expires later is looked at again then.
 *
 * Teardown: unsubscribing stops the queue, its delayed keys and the sync in flight.
 */
export function tokenCleanerController(
  config: TokenCleanerControllerConfig,
): Observable<ReconcileOutcome<string>> {
  const scheduler = config.scheduler ?? asyncScheduler;
  const logger = config.logger ?? silentLogger;
  const secrets = config.informerFactory.forResource<BootstrapTokenSecret>(SECRETS);
  const queue = workQueue<string>({
    name: 'token_cleaner',
    scheduler,
    ...(config.metrics ? { metrics: config.metrics } : {}),
  });
  const isToken = (s: BootstrapTokenSecret) =>
    s.type === SECRET_TYPE_BOOTSTRAP_TOKEN && s.metadata?.namespace === BOOTSTRAP_TOKEN_NAMESPACE;
  const enqueue = (s: BootstrapTokenSecret) => {
    if (isToken(s)) queue.add(`${s.metadata?.namespace}/${s.metadata?.name}`);
  };
  secrets.addEventHandler({ onAdd: enqueue, onUpdate: (_old, s) => enqueue(s) });

  const sync = async (key: string) => {
    const secret = secrets.getStore().getByKey(key);
    if (!secret || !isToken(secret)) return undefined;
    const { expired, timeLeftMs } = tokenExpiration(secret, scheduler.now());
    if (!expired) return timeLeftMs > 0 ? { requeueAfter: timeLeftMs } : undefined;
    logger.info({ secret: key }, 'Deleting expired secret');
    const uid = secret.metadata?.uid;
    try {
      await firstValueFrom(
        config.client.delete(SECRETS, secret.metadata?.name ?? '', {
          namespace: BOOTSTRAP_TOKEN_NAMESPACE,
          ...(uid ? { preconditions: { uid } } : {}),
        }),
      );
    } catch (error) {
      if (!(error instanceof ApiError && (error.statusCode === 409 || error.statusCode === 404)))
        logger.info({ secret: key, err: String(error) }, 'Error deleting secret');
    }
    return undefined;
  };

  logger.info({ controller: 'token_cleaner' }, 'Starting controller');
  return secrets.hasSynced$.pipe(
    first((synced) => synced),
    switchMap(() => NEVER.pipe(reconcileWith<string>(sync, { queue, workers: 1, scheduler, logger }))),
  );
}
