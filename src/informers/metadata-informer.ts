// Metadata-only informers: cache PartialObjectMetadata (kind, apiVersion, metadata) instead of whole objects.
import { map, type Observable } from 'rxjs';
import type { KubeObject, ObjectMeta, ReflectorEvent, WatchEvent } from '../../operators/types.ts';
import type { MetadataOption } from '../../streams/api-client.ts';
import type { ListerWatcher, ListOptions, WatchOptions } from '../../streams/ports.ts';
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
  if (isPartial(object)) return object;
  return { apiVersion: 'meta.k8s.io/v1', kind: 'PartialObjectMetadata', metadata: object.metadata ?? {} };
}

/**
 * A ListerWatcher whose lists and watches carry PartialObjectMetadata. Every list and watch asks for
 * metadata only (`metadataOnly: true` in its options, which `listerWatcher` over an ApiClient forwards as
 * client-go's metadata Accept header), so spec and status stay on the server. Whatever still arrives whole
 * (a server or fake that ignores the request) is reduced on arrival; objects already partial pass as they are.
 *
 * @example metadataInformer({ source: metadataListerWatcher(listerWatcher(api, SECRETS)) })
 * @param lw the ListerWatcher of the resource (full or partial objects)
 * @returns a metadata-only ListerWatcher
 */
export function metadataListerWatcher(lw: ListerWatcher<KubeObject>): ListerWatcher<PartialObjectMetadata> {
  return {
    list: (options) => {
      const asked: ListOptions & MetadataOption = { ...options, metadataOnly: true };
      return lw.list(asked).pipe(
        map((page) => ({
          ...page,
          items: Array.isArray(page.items) ? reduceAll(page.items) : page.items,
        })),
      );
    },
    watch: (options) => {
      const asked: WatchOptions & MetadataOption = { ...options, metadataOnly: true };
      return lw
        .watch(asked)
        .pipe(
          map((event) =>
            event.type === 'ERROR' ||
            event.type === 'BOOKMARK' ||
            !event.object ||
            typeof event.object !== 'object' ||
            isPartial(event.object)
              ? (event as WatchEvent<PartialObjectMetadata>)
              : { type: event.type, object: toPartialObjectMetadata(event.object) },
          ),
        );
    },
  };
}

function isPartial(object: KubeObject): object is PartialObjectMetadata {
  return object.kind === 'PartialObjectMetadata' && object.apiVersion === 'meta.k8s.io/v1';
}

/** The page's items reduced; the same array when the server already sent them partial (no copy). */
function reduceAll(items: KubeObject[]): PartialObjectMetadata[] {
  for (const item of items) {
    if (!isPartial(item)) return items.map(toPartialObjectMetadata);
  }
  return items as PartialObjectMetadata[];
}

/** Options of {@link metadataInformer}: those of a shared informer, over any source of full or partial objects. */
export interface MetadataInformerConfig extends Omit<SharedInformerConfig<PartialObjectMetadata>, 'source'> {
  source: ListerWatcher<KubeObject> | Observable<ReflectorEvent<KubeObject>>;
}

/**
 * A shared informer that caches only metadata (client-go's metadata informers): far less memory per
 * object for controllers that only need names, labels, owners and finalizers. A ListerWatcher source is
 * asked for metadata only (see {@link metadataListerWatcher}), so over an ApiClient the server sends
 * PartialObjectMetadata and full objects never cross the wire; anything that still arrives whole (an
 * observable source, a server that ignores the request) is reduced before the transform and the cache.
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
