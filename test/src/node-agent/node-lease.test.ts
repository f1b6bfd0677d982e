// Tests of the node heartbeat lease (component-helpers lease controller): creation, renewal without reads, retries, conflicts, teardown.
import { defer, of, throwError } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../operators/errors.ts';
import type { Lease } from '../../../operators/leader-election-record.ts';
import { NODE_LEASE_NAMESPACE, nodeLease } from '../../../src/node-agent/node-lease.ts';
import type { LeaseClient } from '../../../streams/lease-client.ts';

function fakeLeases(failures: number[] | Record<number, number> = [], getFailures = 0) {
  const store = new Map<string, Lease>();
  const calls: string[] = [];
  let n = 0;
  let rv = 0;
  let gets = 0;
  const codes: Record<number, number> = Array.isArray(failures)
    ? Object.fromEntries(failures.map((call) => [call, 500]))
    : failures;
  const client: LeaseClient = {
    get: (ns, name) =>
      defer(() => {
        gets += 1;
        calls.push('get');
        if (gets <= getFailures)
          return throwError(() => new ApiError(503, { kind: 'Status', code: 503, message: 'down' }));
        return of(store.get(`${ns}/${name}`));
      }),
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
        const code = codes[call];
        if (code) {
          calls.push(`update-${code}`);
          if (code === 404) store.clear();
          return throwError(() => new ApiError(code, { kind: 'Status', code, message: 'boom' }));
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
      expect(calls).toEqual(['get', 'create', 'update', 'update']);
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

  it('tries a failed update again at once (up to 5 times) and keeps the renew interval', () => {
    const ts = scheduler();
    ts.run(({ expectObservable }) => {
      const { client, calls } = fakeLeases([1]);
      const renewals = nodeLease({ client, nodeName: 'n1', scheduler: ts });
      expectObservable(renewals, '^ 21s !').toBe('a 9999ms b 9999ms c', {
        a: expect.anything(),
        b: expect.anything(),
        c: expect.anything(),
      });
      ts.flush();
      // one GET at the start; later renewals update the lease last written without reading it
      expect(calls).toEqual(['get', 'create', 'update-500', 'update', 'update']);
    });
  });

  it('re-reads the lease on a conflict before updating again', () => {
    const ts = scheduler();
    ts.run(() => {
      const { client, calls } = fakeLeases({ 1: 409 });
      const sub = nodeLease({ client, nodeName: 'n1', scheduler: ts }).subscribe();
      ts.schedule(() => sub.unsubscribe(), 15_000);
      ts.flush();
      expect(calls).toEqual(['get', 'create', 'update-409', 'get', 'update']);
    });
  });

  it('after 5 failed updates falls back to reading (and re-creating) the lease', () => {
    const ts = scheduler();
    ts.run(() => {
      const { client, calls, store } = fakeLeases({ 1: 404, 2: 404, 3: 404, 4: 404, 5: 404 });
      const sub = nodeLease({ client, nodeName: 'n1', scheduler: ts }).subscribe();
      ts.schedule(() => sub.unsubscribe(), 15_000);
      ts.flush();
      expect(calls).toEqual([
        'get',
        'create',
        'update-404',
        'update-404',
        'update-404',
        'update-404',
        'update-404',
        'get',
        'create',
      ]);
      expect(store.get(`${NODE_LEASE_NAMESPACE}/n1`)?.spec?.holderIdentity).toBe('n1');
    });
  });

  it('backs off while the lease cannot be read at all', () => {
    const ts = scheduler();
    ts.run(({ expectObservable }) => {
      const { client, calls } = fakeLeases([], 2);
      const renewals = nodeLease({
        client,
        nodeName: 'n1',
        scheduler: ts,
        backoff: () => ({ next: () => 200, reset: () => {} }),
      });
      expectObservable(renewals, '^ 1s !').toBe('400ms a', { a: expect.anything() });
      ts.flush();
      expect(calls).toEqual(['get', 'get', 'get', 'create']);
    });
  });

  it('adopts an existing lease and gives it an owner reference to the Node when it has none', () => {
    const ts = scheduler();
    ts.run(() => {
      const { client, calls, store } = fakeLeases();
      store.set(`${NODE_LEASE_NAMESPACE}/n1`, {
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: { name: 'n1', namespace: NODE_LEASE_NAMESPACE, resourceVersion: '7' },
        spec: { holderIdentity: 'n1', leaseDurationSeconds: 40 },
      });
      const sub = nodeLease({ client, nodeName: 'n1', nodeUid: 'u1', scheduler: ts }).subscribe();
      ts.schedule(() => sub.unsubscribe(), 1);
      ts.flush();
      expect(calls).toEqual(['get', 'update']);
      expect(store.get(`${NODE_LEASE_NAMESPACE}/n1`)?.metadata?.ownerReferences).toEqual([
        { apiVersion: 'v1', kind: 'Node', name: 'n1', uid: 'u1' },
      ]);
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
      expect(calls).toEqual(['get', 'create', 'update']);
    });
  });
});
