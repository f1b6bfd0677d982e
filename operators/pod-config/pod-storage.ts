// The kubelet's podStorage: per-source pod state that turns each source update into ordered PodUpdates.
import { InvalidInputError } from '../errors.ts';
import { type Logger, silentLogger } from '../logger.ts';
import { deepEqual } from './deep-equal.ts';
import {
  ALL_SOURCE,
  CONFIG_MIRROR_ANNOTATION,
  CONFIG_SEEN_ANNOTATION,
  CONFIG_SOURCE_ANNOTATION,
  type Pod,
  type PodConfigMode,
  type PodUpdate,
  podFullName,
  type SourceUpdate,
} from './types.ts';

/** Annotations the kubelet sets itself; they never make two pods differ. */
const LOCAL_ANNOTATIONS = new Set([
  CONFIG_SOURCE_ANNOTATION,
  CONFIG_MIRROR_ANNOTATION,
  CONFIG_SEEN_ANNOTATION,
]);

export interface PodStorageConfig {
  /** How changes are reported; default `Incremental` (what the kubelet uses). */
  mode?: PodConfigMode;
  /** Milliseconds since the epoch, for the config.seen annotation; default a clock stuck at 0 (pass `scheduler.now`). */
  now?: () => number;
  logger?: Logger;
}

type Change = 'update' | 'delete' | 'reconcile' | undefined;

/**
 * Per-source pod state, merged as the kubelet's podStorage merges it.
 *
 * Invariants: each source's pods are keyed by UID and independent of every other source's (the
 * same pod in two sources is stored twice); a stored pod keeps its identity across updates and
 * carries its source annotation; a source is "seen" once it has sent a SET. Every PodUpdate that
 * `merge` returns carries deep copies, so later merges never change what was handed out.
 */
export class PodStorage {
  readonly mode: PodConfigMode;
  private readonly now: () => number;
  private readonly logger: Logger;
  private readonly pods = new Map<string, Map<string, Pod>>();
  private readonly seen = new Set<string>();

  constructor(config: PodStorageConfig = {}) {
    this.mode = config.mode ?? 'Incremental';
    if (!['Incremental', 'Snapshot', 'SnapshotAndUpdates'].includes(this.mode)) {
      throw new InvalidInputError(
        'PodStorageConfig',
        'mode',
        `unknown notification mode ${String(this.mode)}`,
      );
    }
    this.now = config.now ?? (() => 0);
    this.logger = config.logger ?? silentLogger;
  }

  /** The sources that have sent at least one SET. */
  get sourcesSeen(): ReadonlySet<string> {
    return this.seen;
  }

  /** True when every named source has sent at least one SET (PodConfig.SeenAllSources). */
  seenAllSources(sources: Iterable<string>): boolean {
    for (const source of sources) if (!this.seen.has(source)) return false;
    return true;
  }

  /**
   * Applies one source update and returns the notifications it causes, in the kubelet's order.
   * @param update the source, its operation (default SET) and its pods
   * @returns the PodUpdates to emit, possibly none
   */
  merge(update: SourceUpdate): PodUpdate[] {
    const source = update.source;
    const op = update.op ?? 'SET';
    const firstSetBefore = this.seen.has(source);
    const { adds, updates, deletes, removes, reconciles } = this.apply(source, op, update.pods);
    const firstSet = !firstSetBefore && this.seen.has(source);
    const out: PodUpdate[] = [];
    const emit = (o: PodUpdate['op'], pods: Pod[]) => out.push({ op: o, source, pods: pods.map(copyPod) });
    switch (this.mode) {
      case 'Incremental':
        if (removes.length > 0) emit('REMOVE', removes);
        if (adds.length > 0) emit('ADD', adds);
        if (updates.length > 0) emit('UPDATE', updates);
        if (deletes.length > 0) emit('DELETE', deletes);
        if (firstSet && adds.length === 0 && updates.length === 0 && deletes.length === 0) emit('ADD', []);
        if (reconciles.length > 0) emit('RECONCILE', reconciles);
        break;
      case 'SnapshotAndUpdates':
        if (removes.length > 0 || adds.length > 0 || firstSet) {
          out.push({ op: 'SET', source, pods: this.mergedState() });
        }
        if (updates.length > 0) emit('UPDATE', updates);
        if (deletes.length > 0) emit('DELETE', deletes);
        break;
      case 'Snapshot':
        if (updates.length > 0 || deletes.length > 0 || adds.length > 0 || removes.length > 0 || firstSet) {
          out.push({ op: 'SET', source, pods: this.mergedState() });
        }
        break;
    }
    return out;
  }

  /** Deep copies of every pod of every source, source by source in the order they first appeared. */
  mergedState(): Pod[] {
    const all: Pod[] = [];
    for (const bySource of this.pods.values()) for (const pod of bySource.values()) all.push(copyPod(pod));
    return all;
  }

  /** The kubelet's Sync: a SET of every source's pods under the source `*`, whatever the mode. */
  sync(): PodUpdate {
    return { op: 'SET', source: ALL_SOURCE, pods: this.mergedState() };
  }

  private apply(source: string, op: PodUpdate['op'], incoming: readonly Pod[]) {
    const adds: Pod[] = [];
    const updates: Pod[] = [];
    const deletes: Pod[] = [];
    const removes: Pod[] = [];
    const reconciles: Pod[] = [];
    const current = this.pods.get(source) ?? new Map<string, Pod>();
    const pods = this.filter(source, incoming);

    const absorb = (oldPods: Map<string, Pod>, newPods: Map<string, Pod>) => {
      for (const ref of pods) {
        const uid = ref.metadata!.uid!;
        ref.metadata!.annotations![CONFIG_SOURCE_ANNOTATION] = source;
        const existing = oldPods.get(uid);
        if (existing) {
          newPods.set(uid, existing);
          const change = checkAndUpdatePod(existing, ref);
          if (change === 'update') updates.push(existing);
          else if (change === 'delete') deletes.push(existing);
          else if (change === 'reconcile') reconciles.push(existing);
        } else {
          ref.metadata!.annotations![CONFIG_SEEN_ANNOTATION] = new Date(this.now()).toISOString();
          newPods.set(uid, ref);
          adds.push(ref);
        }
      }
    };

    switch (op) {
      case 'ADD':
      case 'UPDATE':
      case 'DELETE':
        absorb(current, current);
        this.pods.set(source, current);
        break;
      case 'REMOVE':
        for (const ref of pods) {
          const uid = ref.metadata!.uid!;
          const stored = current.get(uid);
          if (stored) {
            current.delete(uid);
            removes.push(stored);
          }
        }
        this.pods.set(source, current);
        break;
      case 'SET': {
        this.seen.add(source);
        const next = new Map<string, Pod>();
        absorb(current, next);
        for (const [uid, pod] of current) if (!next.has(uid)) removes.push(pod);
        this.pods.set(source, next);
        break;
      }
      default:
        this.logger.warn({ source, op }, 'invalid pod update operation, ignored');
    }
    return { adds, updates, deletes, removes, reconciles };
  }

  /**
   * Drops pods that cannot be keyed (no name or no UID) and later pods whose full name repeats an
   * earlier one of the same update; returns shallow copies whose metadata and annotations may be
   * written.
   */
  private filter(source: string, incoming: readonly Pod[]): Pod[] {
    const names = new Set<string>();
    const kept: Pod[] = [];
    for (const pod of incoming) {
      const field = !pod?.metadata?.name ? 'metadata.name' : !pod.metadata.uid ? 'metadata.uid' : undefined;
      if (field) {
        const error = new InvalidInputError(`pod from source ${source}`, field, 'required to merge the pod');
        this.logger.warn({ source, pod: pod?.metadata?.name, err: error.message }, 'pod dropped');
        continue;
      }
      const fullName = podFullName(pod);
      if (names.has(fullName)) {
        this.logger.warn(
          { source, pod: fullName, reason: 'FailedValidation' },
          `duplicate pod name ${JSON.stringify(fullName)} in one update from source ${source}, later pod dropped`,
        );
        continue;
      }
      names.add(fullName);
      kept.push({ ...pod, metadata: { ...pod.metadata, annotations: { ...pod.metadata!.annotations } } });
    }
    return kept;
  }
}

/** A deep copy of a pod, safe to hand out. */
function copyPod(pod: Pod): Pod {
  return structuredClone(pod);
}

/**
 * The kubelet's isAnnotationMapEqual: the kubelet's own (local) annotations are ignored, a
 * missing map counts as empty.
 */
export function annotationsEqual(
  existing: Record<string, string> | undefined,
  candidate: Record<string, string> | undefined,
): boolean {
  const a = existing ?? {};
  const b = candidate ?? {};
  for (const key of Object.keys(b)) {
    if (LOCAL_ANNOTATIONS.has(key)) continue;
    if (!Object.hasOwn(a, key) || a[key] !== b[key]) return false;
  }
  for (const key of Object.keys(a)) {
    if (LOCAL_ANNOTATIONS.has(key)) continue;
    if (!Object.hasOwn(b, key)) return false;
  }
  return true;
}

/** True when two pods differ in anything but status and the kubelet's own annotations. */
export function podsDifferSemantically(existing: Pod, ref: Pod): boolean {
  const e = existing.metadata ?? {};
  const r = ref.metadata ?? {};
  return !(
    deepEqual(existing.spec, ref.spec) &&
    deepEqual(e.labels, r.labels) &&
    deepEqual(e.deletionTimestamp, r.deletionTimestamp) &&
    deepEqual(e.deletionGracePeriodSeconds, r.deletionGracePeriodSeconds) &&
    annotationsEqual(e.annotations, r.annotations)
  );
}

/**
 * The kubelet's checkAndUpdatePod: folds `ref` into the stored `existing` pod (in place) and says
 * what kind of change that was; `undefined` when nothing changed.
 */
function checkAndUpdatePod(existing: Pod, ref: Pod): Change {
  if (!podsDifferSemantically(existing, ref)) {
    if (!deepEqual(existing.status, ref.status)) {
      existing.status = ref.status;
      return 'reconcile';
    }
    return undefined;
  }
  const em = existing.metadata!;
  const rm = ref.metadata!;
  const refAnnotations = rm.annotations!;
  const existingAnnotations = em.annotations ?? {};
  if (existingAnnotations[CONFIG_SEEN_ANNOTATION] !== undefined) {
    refAnnotations[CONFIG_SEEN_ANNOTATION] = existingAnnotations[CONFIG_SEEN_ANNOTATION];
  }
  existing.spec = ref.spec;
  em.labels = rm.labels;
  em.deletionTimestamp = rm.deletionTimestamp;
  em.deletionGracePeriodSeconds = rm.deletionGracePeriodSeconds;
  em.generation = rm.generation;
  existing.status = ref.status;
  const merged: Record<string, string> = { ...refAnnotations };
  for (const key of LOCAL_ANNOTATIONS) {
    const value = existingAnnotations[key];
    if (value !== undefined) merged[key] = value;
  }
  em.annotations = merged;
  return rm.deletionTimestamp ? 'delete' : 'update';
}
