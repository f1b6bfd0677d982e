// tokenCleanerController in virtual time over an in-memory informer: an expired token deleted at once with its UID as precondition, one expiring in 2 h deleted at 2 h, one without expiration and another namespace's kept.
import { of, Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { BootstrapTokenSecret } from '../../../../operators/controller/bootstrap/bootstrap-token.ts';
import type { ReflectorEvent } from '../../../../operators/types.ts';
import { tokenCleanerController } from '../../../../src/controllers/bootstrap/token-cleaner-controller.ts';
import type { InformerFactory } from '../../../../src/informers/informer-factory.ts';
import { sharedInformer } from '../../../../src/informers/shared-informer.ts';
import { VirtualClock } from '../../../../src/testing/virtual-clock.ts';
import type { ApiClient, DeleteOptions } from '../../../../streams/api-client.ts';

const HOUR = 3600_000;
const b64 = (s: string) => Buffer.from(s).toString('base64');
const token = (id: string, expiration?: string, namespace = 'kube-system'): BootstrapTokenSecret => ({
  metadata: { namespace, name: `bootstrap-token-${id}`, uid: `uid-${id}`, resourceVersion: '1' },
  type: 'bootstrap.kubernetes.io/token',
  data: {
    'token-id': b64(id),
    'token-secret': b64('0123456789abcdef'),
    ...(expiration ? { expiration: b64(expiration) } : {}),
  },
});

describe('tokenCleanerController (virtual time)', () => {
  it('deletes each token when it expires', async () => {
    const clock = new VirtualClock();
    clock.advance(10 * HOUR);
    const source = new Subject<ReflectorEvent<BootstrapTokenSecret>>();
    const informer = sharedInformer<BootstrapTokenSecret>({ source, scheduler: clock.scheduler });
    const factory = { forResource: () => informer } as unknown as InformerFactory;
    const deletes: string[] = [];
    const client = {
      delete: (_r: unknown, name: string, options: DeleteOptions) => {
        deletes.push(`${clock.now() / HOUR}h ${options.namespace}/${name} uid=${options.preconditions?.uid}`);
        return of({});
      },
    } as unknown as ApiClient;
    const sub = tokenCleanerController({
      client,
      informerFactory: factory,
      scheduler: clock.scheduler,
    }).subscribe();
    const hold = informer.start();
    const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z');
    source.next({
      type: 'Replace',
      resourceVersion: '1',
      items: [
        token('old111', iso(9 * HOUR)),
        token('soon22', iso(12 * HOUR)),
        token('never3'),
        token('other4', iso(9 * HOUR), 'default'),
        token('bad555', 'next tuesday'),
      ],
    });
    const settle = async () => {
      for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
    };
    await settle();
    clock.advance(1);
    await settle();
    expect(deletes).toEqual([
      '10h kube-system/bootstrap-token-old111 uid=uid-old111',
      '10h kube-system/bootstrap-token-bad555 uid=uid-bad555',
    ]);
    clock.advance(2 * HOUR - 2);
    await settle();
    expect(deletes).toHaveLength(2);
    clock.advance(1);
    await settle();
    expect(deletes.slice(2)).toEqual(['12h kube-system/bootstrap-token-soon22 uid=uid-soon22']);
    clock.advance(100 * HOUR);
    await settle();
    expect(deletes).toHaveLength(3);
    sub.unsubscribe();
    hold.unsubscribe();
  });
});
