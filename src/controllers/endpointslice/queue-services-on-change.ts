// queueServicesOnChange: the Service and pod event handlers the endpoints and endpointslice controllers share — a Service's key is queued when it or a pod it selects changes.
import type { Pod } from '../../../operators/api/core-v1.ts';
import type { Service } from '../../../operators/controller/endpointslice/endpoint-slice-types.ts';
import { serviceSelects } from '../../../operators/controller/endpointslice/service-selects.ts';
import { NAMESPACE_INDEX } from '../../../operators/indexed-store.ts';
import { DeletedFinalStateUnknown } from '../../../operators/types.ts';
import type { SharedInformer } from '../../informers/shared-informer.ts';

const keyOf = (o: { metadata?: { namespace?: string; name?: string } }) =>
  `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;
const unwrap = <T>(o: T | DeletedFinalStateUnknown): T | undefined =>
  o instanceof DeletedFinalStateUnknown ? (o.obj as T) : o;

/**
 * Registers handlers that queue a Service's `namespace/name` when the Service is added, updated or deleted,
 * and when a pod it selects (before or after an update) is added, changes or goes.
 *
 * @param services the Service informer
 * @param pods the pod informer
 * @param queue where keys go
 */
export function queueServicesOnChange(
  services: SharedInformer<Service>,
  pods: SharedInformer<Pod>,
  queue: { add(key: string): void },
): void {
  const servicesOf = (pod: Pod): string[] =>
    services
      .getStore()
      .byIndex(NAMESPACE_INDEX, pod.metadata.namespace ?? '')
      .filter((s) => serviceSelects(s, pod.metadata.labels))
      .map(keyOf);
  services.addEventHandler({
    onAdd: (s) => queue.add(keyOf(s)),
    onUpdate: (_old, s) => queue.add(keyOf(s)),
    onDelete: (o) => {
      const s = unwrap(o);
      if (s?.metadata) queue.add(keyOf(s));
    },
  });
  pods.addEventHandler({
    onAdd: (pod) => {
      for (const k of servicesOf(pod)) queue.add(k);
    },
    onUpdate: (old, pod) => {
      if (old.metadata.resourceVersion === pod.metadata.resourceVersion) return;
      for (const k of new Set([...servicesOf(old), ...servicesOf(pod)])) queue.add(k);
    },
    onDelete: (o) => {
      const pod = unwrap(o);
      if (!pod?.metadata) return;
      for (const k of servicesOf(pod)) queue.add(k);
    },
  });
}
