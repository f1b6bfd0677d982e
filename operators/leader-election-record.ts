// The coordination.k8s.io/v1 Lease shape and the leader-election record it carries, with lossless conversion.
import type { KubeObject, ObjectMeta } from './types.ts';

/** The spec of a `coordination.k8s.io/v1` Lease; times are MicroTime strings (RFC 3339, microseconds). */
export interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  acquireTime?: string;
  renewTime?: string;
  leaseTransitions?: number;
  strategy?: string;
  preferredHolder?: string;
}

/** A `coordination.k8s.io/v1` Lease. */
export interface Lease extends KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec?: LeaseSpec;
}

/**
 * What a leader elector reads from and writes to its lock, client-go's LeaderElectionRecord.
 *
 * Invariants: missing spec fields read as their zero values (`''`, `0`); times are MicroTime strings or
 * `''` for "never". Converting to a spec and back yields the same record.
 */
export interface LeaderElectionRecord {
  holderIdentity: string;
  leaseDurationSeconds: number;
  acquireTime: string;
  renewTime: string;
  leaderTransitions: number;
  strategy: string;
  preferredHolder: string;
}

/** Reads the record out of a Lease; absent fields become zero values. */
export function leaseToRecord(lease: Lease): LeaderElectionRecord {
  const spec = lease.spec ?? {};
  return {
    holderIdentity: spec.holderIdentity ?? '',
    leaseDurationSeconds: spec.leaseDurationSeconds ?? 0,
    acquireTime: spec.acquireTime ?? '',
    renewTime: spec.renewTime ?? '',
    leaderTransitions: spec.leaseTransitions ?? 0,
    strategy: spec.strategy ?? '',
    preferredHolder: spec.preferredHolder ?? '',
  };
}

/**
 * Writes a record as a Lease spec: holder, duration, times and transitions always; strategy and
 * preferred holder only when set (as client-go does). A zero time is left out.
 */
export function recordToLeaseSpec(record: LeaderElectionRecord): LeaseSpec {
  const spec: LeaseSpec = {
    holderIdentity: record.holderIdentity,
    leaseDurationSeconds: record.leaseDurationSeconds,
    leaseTransitions: record.leaderTransitions,
  };
  if (record.acquireTime) spec.acquireTime = record.acquireTime;
  if (record.renewTime) spec.renewTime = record.renewTime;
  if (record.strategy) spec.strategy = record.strategy;
  if (record.preferredHolder) spec.preferredHolder = record.preferredHolder;
  return spec;
}

/**
 * A canonical serialisation of a record, used to notice that the record changed (client-go compares the
 * raw bytes). Field order is fixed so equal records give equal strings.
 */
export function rawRecord(record: LeaderElectionRecord): string {
  return JSON.stringify([
    record.holderIdentity,
    record.leaseDurationSeconds,
    record.acquireTime,
    record.renewTime,
    record.leaderTransitions,
    record.strategy,
    record.preferredHolder,
  ]);
}

/** Formats milliseconds since the epoch as a Kubernetes MicroTime (`2006-01-02T15:04:05.000000Z`). */
export function microTime(epochMs: number): string {
  const iso = new Date(Math.floor(epochMs)).toISOString();
  return `${iso.slice(0, 23)}000Z`;
}
