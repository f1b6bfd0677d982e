// The plugins whose factories need lookups only the assembly has (owner selectors, namespace labels, storage objects), wired to informers.
import type { Pod } from '../../operators/api/core-v1.ts';
import type { LabelSelectorObject } from '../../operators/label-selector.ts';
import type { Registry } from '../../operators/scheduling/framework/interface.ts';
import { defaultPreemptionFactory } from '../../operators/scheduling/plugins/default-preemption/default-preemption.ts';
import { interPodAffinityFactory } from '../../operators/scheduling/plugins/inter-pod-affinity/inter-pod-affinity.ts';
import { podTopologySpreadFactory } from '../../operators/scheduling/plugins/pod-topology-spread/pod-topology-spread.ts';
import type {
  CSINode,
  PersistentVolume,
  PersistentVolumeClaim,
  StorageClass,
  VolumeLookups,
} from '../../operators/scheduling/plugins/volume-lookups.ts';
import { volumeRegistry } from '../../operators/scheduling/plugins/volume-registry.ts';
import type { KubeObject } from '../../operators/types.ts';
import type { SharedInformer } from '../informers/shared-informer.ts';

/** The informers the lookups read. */
export interface AssemblyInformers {
  readonly namespaces: SharedInformer<KubeObject>;
  readonly services: SharedInformer<KubeObject>;
  readonly replicaSets: SharedInformer<KubeObject>;
  readonly statefulSets: SharedInformer<KubeObject>;
  /** The storage kinds the volume plugins read; left out, those plugins skip claims (in-tree behaviour). */
  readonly persistentVolumeClaims?: SharedInformer<KubeObject>;
  readonly persistentVolumes?: SharedInformer<KubeObject>;
  readonly storageClasses?: SharedInformer<KubeObject>;
  readonly csiNodes?: SharedInformer<KubeObject>;
}

type WithSelector = KubeObject & { spec?: { selector?: Record<string, string> | LabelSelectorObject } };

function matches(selector: Record<string, string>, labels: Record<string, string> | undefined): boolean {
  const entries = Object.entries(selector);
  return entries.length > 0 && entries.every(([k, v]) => labels?.[k] === v);
}

/**
 * The selectors of the pod's "owners" for PodTopologySpread's system defaulting, as upstream's
 * DefaultSelector: every Service in its namespace whose selector matches it, and the selector of its
 * controlling ReplicaSet or StatefulSet.
 */
export function ownerSelectors(informers: AssemblyInformers): (pod: Pod) => readonly LabelSelectorObject[] {
  return (pod) => {
    const ns = pod.metadata.namespace ?? '';
    const out: LabelSelectorObject[] = [];
    for (const svc of informers.services.getStore().list() as WithSelector[]) {
      const selector = svc.spec?.selector as Record<string, string> | undefined;
      if (svc.metadata?.namespace === ns && selector && matches(selector, pod.metadata.labels))
        out.push({ matchLabels: selector });
    }
    for (const ref of pod.metadata.ownerReferences ?? []) {
      if (!ref.controller) continue;
      const informer =
        ref.kind === 'ReplicaSet'
          ? informers.replicaSets
          : ref.kind === 'StatefulSet'
            ? informers.statefulSets
            : undefined;
      const owner = informer?.getStore().getByKey(`${ns}/${ref.name}`) as WithSelector | undefined;
      const selector = owner?.spec?.selector as LabelSelectorObject | undefined;
      if (selector) out.push(selector);
    }
    return out;
  };
}

/** A namespace's labels from the namespaces informer. */
export function namespaceLabels(
  informers: AssemblyInformers,
): (namespace: string) => Readonly<Record<string, string>> | undefined {
  return (namespace) => informers.namespaces.getStore().getByKey(namespace)?.metadata?.labels;
}

/**
 * The volume plugins' lookups read from the informer stores (claims by `namespace/name`, the cluster-scoped
 * kinds by name); a kind whose informer is absent gets no lookup, so the checks needing it are skipped.
 */
export function volumeLookups(informers: AssemblyInformers): VolumeLookups {
  const byKey =
    <T>(informer: SharedInformer<KubeObject> | undefined) =>
    (key: string): T | undefined =>
      informer?.getStore().getByKey(key) as T | undefined;
  const lookups: VolumeLookups = {};
  const { persistentVolumeClaims: pvcs, persistentVolumes: pvs, storageClasses, csiNodes } = informers;
  if (pvcs) {
    const get = byKey<PersistentVolumeClaim>(pvcs);
    lookups.persistentVolumeClaim = (namespace, name) => get(`${namespace}/${name}`);
  }
  if (pvs) lookups.persistentVolume = byKey<PersistentVolume>(pvs);
  if (storageClasses) lookups.storageClass = byKey<StorageClass>(storageClasses);
  if (csiNodes) lookups.csiNode = byKey<CSINode>(csiNodes);
  return lookups;
}

/**
 * PodTopologySpread (with owner selectors), InterPodAffinity (with namespace labels) and DefaultPreemption,
 * and the volume plugins (VolumeRestrictions, NodeVolumeLimits, VolumeZone) over {@link volumeLookups},
 * as registry entries; the assembly merges them over the in-tree registry.
 */
export function assemblyRegistry(informers: AssemblyInformers): Registry {
  return {
    ...volumeRegistry(volumeLookups(informers)),
    PodTopologySpread: podTopologySpreadFactory({ ownerSelectors: ownerSelectors(informers) }),
    InterPodAffinity: interPodAffinityFactory({ namespaceLabels: namespaceLabels(informers) }),
    DefaultPreemption: defaultPreemptionFactory(),
  };
}
