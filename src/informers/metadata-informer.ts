// Metadata-only informers: cache PartialObjectMetadata (kind, apiVersion, metadata) instead of whole objects.
import { map, type Observable } from 'rxjs';
import type { KubeObject, ObjectMeta, ReflectorEvent, WatchEvent } from '../../operators/types.ts';
import type { ListerWatcher } from '../../streams/ports.ts';
import { type SharedInformer, type SharedInformerConfig, sharedInformer } from './shared-informer.ts';

/** An object reduced to its metadata, as the API server sends it for `as=PartialObjectMetadata`. */
export interface PartialObjectMetadata extends KubeObject {
  apiVersion: 'meta.k8s.io/v1';
  kind: 'PartialObjectMetadata';
  metadata: ObjectMeta;
}

/**
 * Reduces an object to PartialObjectMetadata (an object that already is one is returned as it is).
 * @param object any Kubernetes object
 * @returns its metadata-only form
 */
export function toPartialObjectMetadata(object: KubeObject): PartialObjectMetadata {
  if (object.kind === 'PartialObjectMetadata' && object.apiVersion === 'meta.k8s.io/v1') {
    return object as PartialObjectMetadata;
  }
  return { apiVersion: 'meta.k8s.io/v1', kind: 'PartialObjectMetadata', metadata: object.metadata ?? {} };
}

/**
 * A ListerWatcher whose lists and watches carry PartialObjectMetadata. Objects are reduced on arrival, so
 * the cache holds metadata only; the full objects still cross the wire until the ApiClient can ask the
 * server for `as=PartialObjectMetadataList` (then this reduction is a no-op).
 *
 * @example metadataInformer({ source: metadataListerWatcher(listerWatcher(api, SECRETS)) })
 * @param lw the full-object ListerWatcher
 * @returns a metadata-only ListerWatcher
 */
export function metadataListerWatcher(lw: ListerWatcher<KubeObject>): ListerWatcher<PartialObjectMetadata> {
  return {
    list: (options) =>
      lw.list(options).pipe(
        map((page) => ({
          ...page,
          items: Array.isArray(page.items) ? page.items.map(toPartialObjectMetadata) : page.items,
        })),
      ),
    watch: (options) =>
      lw
        .watch(options)
        .pipe(
          map((event) =>
            event.type === 'ERROR' ||
            event.type === 'BOOKMARK' ||
            !event.object ||
            typeof event.object !== 'object'
              ? (event as WatchEvent<PartialObjectMetadata>)
              : { type: event.type, object: toPartialObjectMetadata(event.object) },
          ),
        ),
  };
}

/** Options of {@link metadataInformer}: those of a shared informer, over any source of full or partial objects. */
export interface MetadataInformerConfig extends Omit<SharedInformerConfig<PartialObjectMetadata>, 'source'> {
  source: ListerWatcher<KubeObject> | Observable<ReflectorEvent<KubeObject>>;
}

/**
 * A shared informer that caches only metadata (client-go's metadata informers): far less memory per
 * object for controllers that only need names, labels, owners and finalizers. Objects are reduced to
 * PartialObjectMetadata before the transform and the cache.
 *
 * @example
 * const secrets = metadataInformer({ source: listerWatcher(api, SECRETS) });
 * secrets.events().subscribe((n) => console.log(n.key));
 * @param config the shared informer's options; `source` may deliver full objects
 * @returns the informer of PartialObjectMetadata
 */
export function metadataInformer(config: MetadataInformerConfig): SharedInformer<PartialObjectMetadata> {
  const { source, transform, ...rest } = config;
  const reduce = (object: KubeObject): PartialObjectMetadata => {
    const partial = toPartialObjectMetadata(object);
    return transform ? transform(partial) : partial;
  };
  const partialSource =
    typeof (source as ListerWatcher).list === 'function'
      ? metadataListerWatcher(source as ListerWatcher<KubeObject>)
      : (source as Observable<ReflectorEvent<KubeObject>>);
  return sharedInformer<PartialObjectMetadata>({
    ...rest,
    source: partialSource as
      | ListerWatcher<PartialObjectMetadata>
      | Observable<ReflectorEvent<PartialObjectMetadata>>,
    transform: reduce as (object: PartialObjectMetadata) => PartialObjectMetadata,
  });
}
