// Tests the in-memory Lease store: optimistic concurrency, latency, partitions and aborted calls.
import { firstValueFrom } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { inMemoryLeases } from '../../../src/leader-election/in-memory-leases.ts';

const lease = (holder: string, resourceVersion?: string) => ({
  metadata: { namespace: 'ns', name: 'l', ...(resourceVersion ? { resourceVersion } : {}) },
  spec: { holderIdentity: holder },
});

describe('inMemoryLeases', () => {
  it('creates once, bumps resourceVersions, and rejects stale updates with 409', async () => {
    const store = inMemoryLeases();
    const c = store.client();
    expect(await firstValueFrom(c.get('ns', 'l'))).toBeUndefined();
    const created = await firstValueFrom(c.create(lease('a')));
    expect(created.metadata?.resourceVersion).toBe('1');
    await expect(firstValueFrom(c.create(lease('b')))).rejects.toMatchObject({
      statusCode: 409,
      reason: 'AlreadyExists',
    });
    const updated = await firstValueFrom(c.update(lease('b', '1')));
    expect(updated.metadata?.resourceVersion).toBe('2');
    await expect(firstValueFrom(c.update(lease('c', '1')))).rejects.toMatchObject({
      statusCode: 409,
      reason: 'Conflict',
    });
    expect(store.get('ns', 'l')?.spec?.holderIdentity).toBe('b');
    expect(store.writes.map((w) => w.spec?.holderIdentity)).toEqual(['a', 'b']);
  });

  it('applies a call after its latency; an unsubscribed call never happens; partitions hang or fail', () => {
    const ts = new TestScheduler((a, b) => expect(a).toEqual(b));
    ts.run(({ expectObservable }) => {
      const store = inMemoryLeases({ scheduler: ts });
      const slow = store.client({ latency: 20 });
      slow.create(lease('a')).subscribe().unsubscribe();
      expectObservable(slow.get('ns', 'l'), '^ 30ms !').toBe('20ms (u|)', { u: undefined });
      const cut = store.client();
      cut.partition('hang');
      expectObservable(cut.get('ns', 'l'), '^ 100ms !').toBe('');
      const failing = store.client();
      failing.partition('fail');
      expectObservable(failing.get('ns', 'l')).toBe(
        '#',
        undefined,
        expect.objectContaining({ statusCode: 503 }),
      );
    });
  });
});
