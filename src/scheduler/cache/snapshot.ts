// Snapshot: one scheduling cycle's view of the nodes (NodeInfoLister), updated incrementally by the cache.

import type { Node, Pod } from '../../../operators/api/core-v1.ts';
import type { NodeInfoLister } from '../../../operators/scheduling/framework/interface.ts';
import { NodeInfo } from '../../../operators/scheduling/framework/node-info.ts';

/**
 * The nodes as one cycle sees them. Invariants: `nodeInfoList` holds the NodeInfo of every node of the
 * cache that has a Node object, in node-tree order (interleaved across zones), and nothing else;
 * `nodeInfoMap` maps their names to the same objects; the two affinity lists are the sublists of nodes
 * with such pods; `generation` is the highest NodeInfo generation copied in. Plugins only read it; the
 * cache writes it between cycles (`SchedulerCache.updateSnapshot`).
 */
export class Snapshot implements NodeInfoLister {
  nodeInfoMap = new Map<string, NodeInfo>();
  nodeInfoList: NodeInfo[] = [];
  podsWithAffinityList: NodeInfo[] = [];
  podsWithRequiredAntiAffinityList: NodeInfo[] = [];
  generation = 0;
  /** The image-state generation of the cache last copied in (image node counts). */
  imageGeneration = -1;
  /** The node tree's version the list was built from (its order). */
  treeVersion = -1;

  /** A snapshot built directly from nodes and pods (tests, what-ifs): pods land on their spec.nodeName. */
  static of(nodes: readonly Node[], pods: readonly Pod[] = []): Snapshot {
    const s = new Snapshot();
    for (const n of nodes) s.nodeInfoMap.set(n.metadata.name ?? '', new NodeInfo(n));
    for (const p of pods) {
      const name = p.spec.nodeName;
      if (!name) continue;
      let info = s.nodeInfoMap.get(name);
      if (!info) {
        info = new NodeInfo();
        s.nodeInfoMap.set(name, info);
      }
      info.addPod(p);
    }
    s.nodeInfoList = [...s.nodeInfoMap.values()].filter((i) => i.node);
    s.podsWithAffinityList = s.nodeInfoList.filter((i) => i.podsWithAffinity.length > 0);
    s.podsWithRequiredAntiAffinityList = s.nodeInfoList.filter(
      (i) => i.podsWithRequiredAntiAffinity.length > 0,
    );
    return s;
  }

  list(): readonly NodeInfo[] {
    return this.nodeInfoList;
  }

  get(nodeName: string): NodeInfo | undefined {
    const info = this.nodeInfoMap.get(nodeName);
    return info?.node ? info : undefined;
  }

  havePodsWithAffinityList(): readonly NodeInfo[] {
    return this.podsWithAffinityList;
  }

  havePodsWithRequiredAntiAffinityList(): readonly NodeInfo[] {
    return this.podsWithRequiredAntiAffinityList;
  }

  numNodes(): number {
    return this.nodeInfoList.length;
  }
}
