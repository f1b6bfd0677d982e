// namespacedResourcesDeleter: one pass of the namespace controller over a terminating namespace — mark it, empty it, report, finalize.
import { firstValueFrom } from 'rxjs';
import type { Pod } from '../../../operators/api/core-v1.ts';
import { contentRemaining } from '../../../operators/controller/namespace/content-remaining.ts';
import {
  type DeletableResource,
  deletableResources,
} from '../../../operators/controller/namespace/deletable-resources.ts';
import {
  finalizeNamespace,
  namespaceFinalized,
} from '../../../operators/controller/namespace/finalize-namespace.ts';
import { gracefulTerminationEstimate } from '../../../operators/controller/namespace/graceful-termination-estimate.ts';
import {
  type NamespaceDeletionProblems,
  namespaceConditions,
} from '../../../operators/controller/namespace/namespace-conditions.ts';
import {
  FINALIZER_KUBERNETES,
  type Namespace,
} from '../../../operators/controller/namespace/namespace-types.ts';
import { ApiError, KubeRxError } from '../../../operators/errors.ts';
import { type Logger, silentLogger } from '../../../operators/logger.ts';
import type { KubeObject, ObjectList } from '../../../operators/types.ts';
import type { ApiClient, ApiResourceList, ResourceDescriptor } from '../../../streams/api-client.ts';
import { NAMESPACES, PODS } from '../../../streams/resources.ts';

/** Settings of {@link namespacedResourcesDeleter}. */
export interface NamespacedResourcesDeleterConfig {
  /** Must serve `serverPreferredResources` and `deleteCollection` (kubeApiClient does). */
  client: ApiClient;
  /** The finalizer this deleter owns; default `kubernetes`. */
  finalizerToken?: string;
  /** The clock, in ms (the pods' graceful-termination estimate and the conditions' times). */
  now: () => number;
  logger?: Logger;
}

/** How one pass ended. `remaining`: content is still going; look again in about `estimateSeconds`. */
export type NamespaceDeletionOutcome =
  | { type: 'gone' }
  | { type: 'active' }
  | { type: 'finalized' }
  | { type: 'remaining'; estimateSeconds: number };

/** One pass failed: discovery, a resource's content or a write (retried with the queue's backoff). */
export class NamespaceDeletionError extends KubeRxError {
  constructor(namespace: string, messages: readonly string[]) {
    super('KUBE_RX_NAMESPACE_DELETION', `deletion of namespace ${namespace} failed: ${messages.join(', ')}`);
  }
}

const is = (error: unknown, code: number) => error instanceof ApiError && error.statusCode === code;
const messageOf = (error: unknown) =>
  error instanceof ApiError
    ? (error.status.message ?? error.message)
    : error instanceof Error
      ? error.message
      : String(error);

/**
 * One pass of upstream's NamespacedResourcesDeleter over namespace `name`, read live (not from a cache):
 *
 * 1. gone or not being deleted → nothing to do; phase not yet Terminating → set it (status write).
 * 2. spec.finalizers already empty → nothing to do.
 * 3. discovery (preferred versions), then per namespaced resource that supports `delete`: the pods'
 *    graceful-termination estimate, `deletecollection` (background propagation; list and delete each
 *    where it is not served), and a list of what remains; the NamespaceDeletion* conditions are written
 *    when they change. Errors are collected and the pass goes on with the next resource.
 * 4. errors → throws {@link NamespaceDeletionError}; something still going → `remaining` with the
 *    longest estimate; else `finalize`: PUT namespaces/NAME/finalize without the token.
 *
 * Writes that meet a 409 Conflict read the namespace again and retry (refused if its uid changed).
 *
 * @param config the client, the finalizer token and the clock
 * @returns the pass as a function of the namespace's name
 */
export function namespacedResourcesDeleter(
  config: NamespacedResourcesDeleterConfig,
): (name: string) => Promise<NamespaceDeletionOutcome> {
  const { client } = config;
  const token = config.finalizerToken ?? FINALIZER_KUBERNETES;
  const logger = config.logger ?? silentLogger;
  const timestamp = () =>
    new Date(Math.floor(config.now() / 1000) * 1000).toISOString().replace('.000Z', 'Z');

  const getNamespace = (name: string) => firstValueFrom(client.get<Namespace>(NAMESPACES, name));

  /** Runs a write; on Conflict reads the namespace again and retries with it, unless its uid changed. */
  const retryOnConflict = async (
    namespace: Namespace,
    write: (ns: Namespace) => Promise<Namespace>,
  ): Promise<Namespace> => {
    let latest = namespace;
    for (;;) {
      try {
        return await write(latest);
      } catch (error) {
        if (!is(error, 409)) throw error;
        const previous = latest;
        latest = await getNamespace(previous.metadata?.name ?? '');
        if (previous.metadata?.uid !== latest.metadata?.uid)
          throw new NamespaceDeletionError(previous.metadata?.name ?? '', [
            'namespace uid has changed across retries',
          ]);
      }
    }
  };

  const descriptorOf = (r: DeletableResource): ResourceDescriptor => ({
    group: r.group,
    version: r.version,
    plural: r.resource,
    kind: r.kind,
    namespaced: true,
  });

  const listRemaining = async (
    r: DeletableResource,
    namespace: string,
  ): Promise<KubeObject[] | undefined> => {
    if (!r.list) return undefined;
    try {
      const list = await firstValueFrom(client.list(descriptorOf(r), { namespace, metadataOnly: true }));
      return (list as ObjectList<KubeObject>).items ?? [];
    } catch (error) {
      // a resource answering 404 or 405 (a CRD just removed) has nothing to list; not remembered
      if (is(error, 404) || is(error, 405)) return undefined;
      throw error;
    }
  };

  const deleteContent = async (r: DeletableResource, namespace: string): Promise<void> => {
    if (r.deleteCollection && client.deleteCollection) {
      try {
        await firstValueFrom(
          client.deleteCollection(descriptorOf(r), { namespace, propagationPolicy: 'Background' }),
        );
        return;
      } catch (error) {
        if (!is(error, 404) && !is(error, 405)) throw error;
      }
    }
    // deletecollection is not served: list and delete each
    for (const item of (await listRemaining(r, namespace)) ?? []) {
      try {
        await firstValueFrom(
          client.delete(descriptorOf(r), item.metadata?.name ?? '', {
            namespace,
            propagationPolicy: 'Background',
          }),
        );
      } catch (error) {
        if (!is(error, 404) && !is(error, 405)) throw error;
      }
    }
  };

  const deleteAllContent = async (
    ns: Namespace,
  ): Promise<{ namespace: Namespace; estimate: number; errors: string[] }> => {
    const name = ns.metadata?.name ?? '';
    const deletedAt = Date.parse(ns.metadata?.deletionTimestamp ?? '');
    const errors: string[] = [];
    const problems: NamespaceDeletionProblems & {
      contentErrors: string[];
      remaining: { group: string; resource: string; count: number }[];
      finalizers: Record<string, number>;
    } = { contentErrors: [], remaining: [], finalizers: {} };
    let lists: readonly ApiResourceList[] = [];
    if (!client.serverPreferredResources) {
      problems.discoveryError = 'the API client does not serve discovery';
      errors.push(problems.discoveryError);
    } else {
      try {
        const found = await firstValueFrom(client.serverPreferredResources());
        lists = found.lists;
        if (found.failed.length > 0) {
          problems.discoveryFailures = found.failed;
          errors.push(
            `unable to retrieve the complete list of server APIs: ${found.failed
              .map((f) => `${f.groupVersion}: ${f.message}`)
              .sort()
              .join(', ')}`,
          );
        }
      } catch (error) {
        problems.discoveryError = messageOf(error);
        errors.push(problems.discoveryError);
      }
    }
    const deletable = deletableResources(lists);
    if (deletable.groupVersionError) {
      problems.groupVersionError = deletable.groupVersionError;
      errors.push(deletable.groupVersionError);
    }
    let estimate = 0;
    for (const r of deletable.resources) {
      let local = 0;
      try {
        if (r.group === '' && r.resource === 'pods') {
          const pods = await firstValueFrom(client.list<Pod>(PODS, { namespace: name }));
          local = gracefulTerminationEstimate(pods.items ?? [], deletedAt, config.now());
        }
        await deleteContent(r, name);
        const items = await listRemaining(r, name);
        if (items === undefined) {
          estimate = Math.max(estimate, local);
          continue;
        }
        const outcome = contentRemaining(r, name, items, local);
        estimate = Math.max(estimate, outcome.estimateSeconds);
        if (outcome.remaining > 0) {
          problems.remaining.push({ group: r.group, resource: r.resource, count: outcome.remaining });
          for (const [f, n] of Object.entries(outcome.finalizers))
            problems.finalizers[f] = (problems.finalizers[f] ?? 0) + n;
        }
        if (outcome.error) {
          problems.contentErrors.push(outcome.error);
          errors.push(outcome.error);
        }
      } catch (error) {
        estimate = Math.max(estimate, local);
        problems.contentErrors.push(messageOf(error));
        errors.push(messageOf(error));
      }
    }
    const { conditions, changed } = namespaceConditions(ns.status?.conditions ?? [], problems, timestamp());
    let namespace = ns;
    if (changed) {
      try {
        namespace = await firstValueFrom(
          client.updateStatus<Namespace>(NAMESPACES, { ...ns, status: { ...ns.status, conditions } }),
        );
      } catch (error) {
        logger.error(
          { err: error, namespace: name },
          `couldn't update status condition for namespace "${name}"`,
        );
      }
    }
    return { namespace, estimate, errors };
  };

  return async (name) => {
    let namespace: Namespace;
    try {
      namespace = await getNamespace(name);
    } catch (error) {
      if (is(error, 404)) return { type: 'gone' };
      throw error;
    }
    if (!namespace.metadata?.deletionTimestamp) return { type: 'active' };
    try {
      namespace = await retryOnConflict(namespace, async (ns) =>
        ns.status?.phase === 'Terminating'
          ? ns
          : firstValueFrom(
              client.updateStatus<Namespace>(NAMESPACES, {
                ...ns,
                status: { ...ns.status, phase: 'Terminating' },
              }),
            ),
      );
    } catch (error) {
      if (is(error, 404)) return { type: 'gone' };
      throw error;
    }
    if (!namespace.metadata?.deletionTimestamp) return { type: 'active' };
    if (namespaceFinalized(namespace)) return { type: 'finalized' };

    const content = await deleteAllContent(namespace);
    logger.debug(
      { namespace: name, estimate: content.estimate, errors: content.errors },
      'namespace controller - deleteAllContent',
    );
    if (content.errors.length > 0) throw new NamespaceDeletionError(name, content.errors);
    if (content.estimate > 0) return { type: 'remaining', estimateSeconds: content.estimate };

    try {
      await retryOnConflict(content.namespace, (ns) =>
        firstValueFrom(
          client.update<Namespace>(NAMESPACES, finalizeNamespace(ns, token), { subresource: 'finalize' }),
        ),
      );
    } catch (error) {
      // another controller sharing the token finished first
      if (is(error, 404)) return { type: 'gone' };
      throw error;
    }
    return { type: 'finalized' };
  };
}
