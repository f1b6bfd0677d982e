// Tests of the node heartbeat lease: creation, renewal period, retry after failure, teardown.
import { defer, of, throwError } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../operators/errors.ts';
import type { Lease } from '../../../operators/leader-election-record.ts';
import { NODE_LEASE_NAMESPACE, nodeLease } from '../../../src/node-agent/node-lease.ts';
import type { LeaseClient } from '../../../streams/lease-client.ts';

function fakeLeases(failures: number[] = []) {
  const store = new Map<string, Lease>();
  const calls: string[] = [];
  let n = 0;
  let rv = 0;
  const client: LeaseClient = {
    get: (ns, name) => defer(() => of(store.get(`${ns}/${name}`))),
    create: (lease) =>
      defer(() => {
        calls.push('create');
        const saved = { ...lease, metadata: { ...lease.metadata, resourceVersion: String(++rv) } };
        store.set(`${lease.metadata?.namespace}/${lease.metadata?.name}`, saved);
        return of(saved);
      }),
    update: (lease) =>
      defer(() => {
        const call = ++n;
        if (failures.includes(call)) {
          calls.push('update-failed');
          return throwError(() => new ApiError(500, { kind: 'Status', code: 500, message: 'boom' }));
        }
        calls.push('update');
        const saved = { ...lease, metadata: { ...lease.metadata, resourceVersion: String(++rv) } };
        store.set(`${lease.metadata?.namespace}/${lease.metadata?.name}`, saved);
        return of(saved);
      }),
  };
  return { client, store, calls };
}

const scheduler = () =>
  new TestScheduler((actual, expected) => {
    expect(actual).toEqual(expected);
  });

describe('nodeLease', () => {
  it('creates the lease, then renews it every quarter of the lease duration', () => {
    const ts = scheduler();
    ts.run(({ expectObservable }) => {
      const { client, calls } = fakeLeases();
      const renewals = nodeLease({ client, nodeName: 'n1', nodeUid: 'u1', scheduler: ts });
      expectObservable(renewals, '^ 25s !').toBe('a 9999ms b 9999ms c', {
        a: expect.objectContaining({ spec: expect.objectContaining({ holderIdentity: 'n1' }) }),
        b: expect.anything(),
        c: expect.anything(),
      });
      ts.flush();
      expect(calls).toEqual(['create', 'update', 'update']);
    });
  });

  it('writes the kubelet lease shape: namespace, holder, 40 s duration, owner reference to the Node', () => {
    const ts = scheduler();
    ts.run(() => {
      const { client, store } = fakeLeases();
      const sub = nodeLease({ client, nodeName: 'n1', nodeUid: 'u1', scheduler: ts }).subscribe();
      ts.schedule(() => sub.unsubscribe(), 1);
      ts.flush();
      const lease = store.get(`${NODE_LEASE_NAMESPACE}/n1`);
      expect(lease?.spec).toMatchObject({ holderIdentity: 'n1', leaseDurationSeconds: 40 });
      expect(lease?.metadata?.ownerReferences).toEqual([
        { apiVersion: 'v1', kind: 'Node', name: 'n1', uid: 'u1' },
      ]);
    });
  });

  it('retries a failed renewal after the backoff, not after the renew interval, and keeps going', () => {
    const ts = scheduler();
    ts.run(({ expectObservable }) => {
      const { client, calls } = fakeLeases([1]);
      const renewals = nodeLease({
        client,
        nodeName: 'n1',
        scheduler: ts,
        backoff: () => ({ next: () => 200, reset: () => {} }),
      });
      // create at 0; the update at 10 s fails; the retry 200 ms later succeeds; the next at 20.2 s.
      expectObservable(renewals, '^ 21s !').toBe('a 10199ms b 9999ms c', {
        a: expect.anything(),
        b: expect.anything(),
        c: expect.anything(),
      });
      ts.flush();
      expect(calls).toEqual(['create', 'update-failed', 'update', 'update']);
    });
  });

  it('stops renewing when unsubscribed', () => {
    const ts = scheduler();
    ts.run(() => {
      const { client, calls } = fakeLeases();
      const sub = nodeLease({ client, nodeName: 'n1', scheduler: ts }).subscribe();
      ts.schedule(() => sub.unsubscribe(), 15_000);
      ts.schedule(() => {}, 60_000);
      ts.flush();
      expect(calls).toEqual(['create', 'update']);
    });
  });
});
