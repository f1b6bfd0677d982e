// POST pods/NAME/eviction: deletes a pod unless a PodDisruptionBudget forbids it, as kube-apiserver's EvictionREST does.

import { labelSelectorFromObject } from '../../../operators/label-selector.ts';
import type { KubeObject } from '../../../operators/types.ts';
import { ApiStatusError, badRequest } from '../api-status.ts';

type Obj = Record<string, unknown>;

/** The message of a 429 when a budget forbids the eviction. */
export const EVICTION_REFUSED = "Cannot evict pod as it would violate the pod's disruption budget.";
/** Upstream's bound on status.disruptedPods. */
export const MAX_DISRUPTED_POD_SIZE = 2000;

/** What an eviction reads and writes. */
export interface EvictionStore {
  getPod(namespace: string, name: string): KubeObject;
  listBudgets(namespace: string): KubeObject[];
  /** Writes a budget's status; throws 409 when `resourceVersion` is stale. */
  writeBudgetStatus(namespace: string, name: string, status: Obj): void;
  deletePod(namespace: string, name: string, deleteOptions: Obj): unknown;
  /** The current time as RFC 3339. */
  now(): string;
}

function tooManyRequests(message: string, cause?: string): ApiStatusError {
  return new ApiStatusError(
    429,
    'TooManyRequests',
    message,
    cause ? { causes: [{ type: 'DisruptionBudget', message: cause }] } : undefined,
  );
}

function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** The pod's Ready condition is True (upstream's IsPodReady, the eviction's notion of healthy). */
function isPodReady(pod: KubeObject): boolean {
  const conditions = (pod.status as Obj | undefined)?.conditions;
  return (
    Array.isArray(conditions) && conditions.some((c) => isObj(c) && c.type === 'Ready' && c.status === 'True')
  );
}

/**
 * An unready pod may be evicted without spending a disruption: always under `unhealthyPodEvictionPolicy:
 * AlwaysAllow`; under the default IfHealthyBudget only while the budget has its desired healthy pods.
 */
function unhealthyMayGo(budget: KubeObject): boolean {
  if ((budget.spec as Obj | undefined)?.unhealthyPodEvictionPolicy === 'AlwaysAllow') return true;
  const status = (budget.status as Obj | undefined) ?? {};
  const desired = Number(status.desiredHealthy ?? 0);
  return desired > 0 && Number(status.currentHealthy ?? 0) >= desired;
}

/**
 * Evicts `namespace/name` as the Eviction `body` asks: terminal, pending or already deleting pods
 * go at once; otherwise the one budget selecting the pod must allow a disruption, which is then
 * recorded in its status before the pod is deleted.
 * @returns the Status of the deletion
 * @throws 429 TooManyRequests when the budget allows no disruption, 500 when several budgets match
 */
export function evictPod(store: EvictionStore, namespace: string, name: string, body: unknown): unknown {
  if (!isObj(body)) throw badRequest('the body of the request is not an Eviction object');
  if (body.kind !== undefined && body.kind !== 'Eviction')
    throw badRequest(
      `kind: the kind in the data (${String(body.kind)}) does not match the expected kind (Eviction)`,
    );
  const meta = isObj(body.metadata) ? body.metadata : {};
  if (meta.name !== undefined && meta.name !== name)
    throw badRequest(`name in URL does not match name in Eviction object`);
  const deleteOptions = isObj(body.deleteOptions) ? body.deleteOptions : {};
  const pod = store.getPod(namespace, name);
  const phase = (pod.status as Obj | undefined)?.phase;
  const ignoreBudgets =
    phase === 'Succeeded' ||
    phase === 'Failed' ||
    phase === 'Pending' ||
    pod.metadata?.deletionTimestamp !== undefined;
  if (!ignoreBudgets) {
    const labels = pod.metadata?.labels ?? {};
    const budgets = store.listBudgets(namespace).filter((b) => {
      const selector = (b.spec as Obj | undefined)?.selector;
      if (!isObj(selector)) return false;
      try {
        // as upstream's eviction: an empty selector matches nothing here (the disruption controller's
        // policy/v1 reading, every pod, only sets the budget's status)
        const s = labelSelectorFromObject(selector as never);
        return !s.isEmpty() && s.matches(labels);
      } catch {
        return false;
      }
    });
    if (budgets.length > 1)
      throw new ApiStatusError(
        500,
        'InternalError',
        'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.',
      );
    const budget = budgets[0];
    if (budget && !isPodReady(pod) && unhealthyMayGo(budget)) {
      // an unready pod does not count towards currentHealthy: it goes without spending a disruption
      store.deletePod(namespace, name, {
        ...deleteOptions,
        preconditions: {
          ...((deleteOptions.preconditions as Obj | undefined) ?? {}),
          resourceVersion: pod.metadata?.resourceVersion,
        },
      });
      return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 };
    }
    if (budget) {
      const budgetName = String(budget.metadata?.name);
      const status = { ...((budget.status as Obj | undefined) ?? {}) };
      const generation = budget.metadata?.generation ?? 0;
      if (Number(status.observedGeneration ?? 0) < generation)
        throw tooManyRequests(
          EVICTION_REFUSED,
          `The disruption budget ${budgetName} is still being processed by the server.`,
        );
      const allowed = Number(status.disruptionsAllowed ?? 0);
      if (allowed < 0) throw new ApiStatusError(403, 'Forbidden', 'pdb disruptions allowed is negative');
      const disrupted = { ...((status.disruptedPods as Obj | undefined) ?? {}) };
      if (Object.keys(disrupted).length > MAX_DISRUPTED_POD_SIZE)
        throw new ApiStatusError(
          403,
          'Forbidden',
          'DisruptedPods map too big - too many evictions not confirmed by PDB controller',
        );
      if (allowed === 0)
        throw tooManyRequests(
          EVICTION_REFUSED,
          `The disruption budget ${budgetName} needs ${Number(status.desiredHealthy ?? 0)} healthy pods and has ${Number(status.currentHealthy ?? 0)} currently`,
        );
      disrupted[name] = store.now();
      store.writeBudgetStatus(namespace, budgetName, {
        ...status,
        disruptionsAllowed: allowed - 1,
        disruptedPods: disrupted,
      });
    }
  }
  store.deletePod(namespace, name, deleteOptions);
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Success',
    code: 201,
  };
}
