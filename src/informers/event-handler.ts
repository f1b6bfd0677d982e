// Callback-style informer handlers (client-go's ResourceEventHandler) and the filtering adapter.
import type { InformerNotification } from '../../operators/informer-notification.ts';
import type { DeletedFinalStateUnknown, KubeObject } from '../../operators/types.ts';
import type { HandlerResult } from './informer-listener.ts';

/**
 * Callbacks for one informer handler; each is optional. A callback may return a Promise or an
 * ObservableInput: the handler gets its next notification only once that settles. A throw or a rejection
 * is logged and delivery goes on.
 */
export interface EventHandler<T extends KubeObject = KubeObject> {
  onAdd?(object: T, isInInitialList: boolean): HandlerResult;
  onUpdate?(oldObject: T, newObject: T): HandlerResult;
  /** `object` is the final state, or a tombstone when the deletion was only noticed by a relist. */
  onDelete?(object: T | DeletedFinalStateUnknown<T>): HandlerResult;
}

/**
 * Turns callbacks into the function a listener calls per notification.
 * @param handler the callbacks
 * @returns a delivery function
 */
export function deliverTo<T extends KubeObject>(
  handler: EventHandler<T>,
): (n: InformerNotification<T>) => HandlerResult {
  return (n) => {
    switch (n.type) {
      case 'add':
        return handler.onAdd?.(n.object, n.isInInitialList);
      case 'update':
        return handler.onUpdate?.(n.oldObject, n.newObject);
      case 'delete':
        return handler.onDelete?.(n.object);
    }
  };
}

/**
 * client-go's FilteringResourceEventHandler: only objects passing `filter` reach `handler`. An update whose
 * old object passed and new one does not becomes a delete (of the old object); one whose new object passes
 * and old one did not becomes an add (not in the initial list).
 *
 * @example
 * informer.addEventHandler(filteringEventHandler((p) => p.spec?.nodeName === node, { onAdd: track }));
 * @param filter which objects the handler cares about (tombstones are tested by their last known object)
 * @param handler the callbacks to forward to
 * @returns a handler
 */
export function filteringEventHandler<T extends KubeObject>(
  filter: (object: T | DeletedFinalStateUnknown<T>) => boolean,
  handler: EventHandler<T>,
): EventHandler<T> {
  return {
    onAdd: (object, initial) => (filter(object) ? handler.onAdd?.(object, initial) : undefined),
    onUpdate: (oldObject, newObject) => {
      const was = filter(oldObject);
      const is = filter(newObject);
      if (was && is) return handler.onUpdate?.(oldObject, newObject);
      if (is) return handler.onAdd?.(newObject, false);
      if (was) return handler.onDelete?.(oldObject);
      return undefined;
    },
    onDelete: (object) => (filter(object) ? handler.onDelete?.(object) : undefined),
  };
}
