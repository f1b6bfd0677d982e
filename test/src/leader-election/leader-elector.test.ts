// The elector's step API and the healthz adaptor, with cases from client-go's leaderelection_test.go and healthzadaptor_test.go.
import { firstValueFrom, lastValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { InvalidConfigError } from '../../../operators/errors.ts';
import { healthzAdaptor } from '../../../src/leader-election/healthz-adaptor.ts';
import { inMemoryLeases } from '../../../src/leader-election/in-memory-leases.ts';
import { leaderElection } from '../../../src/leader-election/leader-election.ts';
import { leaderElector } from '../../../src/leader-election/leader-elector.ts';
import { VirtualClock } from '../../../src/testing/virtual-clock.ts';

const lock = { namespace: 'kube-system', name: 'lock' };

describe('leaderElector (the step API)', () => {
  it('tryAcquireOrRenew, isLeader, getLeader and release, between two candidates', async () => {
    const clock = new VirtualClock();
    const leases = inMemoryLeases({ scheduler: clock.scheduler });
    const a = leaderElector({ client: leases.client(), ...lock, identity: 'a', scheduler: clock.scheduler });
    const b = leaderElector({ client: leases.client(), ...lock, identity: 'b', scheduler: clock.scheduler });
    expect(a.getLeader()).toBe('');
    expect(await firstValueFrom(a.tryAcquireOrRenew())).toBe(true);
    expect(a.isLeader()).toBe(true);
    expect(await firstValueFrom(b.tryAcquireOrRenew())).toBe(false);
    expect(b.isLeader()).toBe(false);
    expect(b.getLeader()).toBe('a');
    // a renews; b still blocked while a's lease is valid by b's own clock
    clock.advance(2_000);
    expect(await firstValueFrom(a.tryAcquireOrRenew())).toBe(true);
    expect(await firstValueFrom(b.tryAcquireOrRenew())).toBe(false);
    expect(await lastValueFrom(a.release())).toBe(true);
    expect(a.isLeader()).toBe(false);
    expect(leases.get('kube-system', 'lock')?.spec?.holderIdentity ?? '').toBe('');
    // an empty holder may be taken at once
    expect(await firstValueFrom(b.tryAcquireOrRenew())).toBe(true);
    expect(b.getLeader()).toBe('b');
    expect(a.leaseDuration).toBe(15_000);
  });

  it('validates identity and timings as leaderElection does', () => {
    const leases = inMemoryLeases();
    expect(() => leaderElector({ client: leases.client(), ...lock, identity: '' })).toThrow(
      InvalidConfigError,
    );
    expect(() =>
      leaderElector({ client: leases.client(), ...lock, identity: 'a', leaseDuration: 5_000 }),
    ).toThrow('leaseDuration must be greater than renewDeadline');
  });
});

describe('healthzAdaptor (HealthzAdaptor.Check)', () => {
  it.each<[string, boolean, number, boolean]>([
    ['a candidate that does not lead is healthy', false, 60_000, true],
    ['a leader within lease duration + timeout is healthy', true, 15_000 + 20_000, true],
    ['a leader past lease duration + timeout is unhealthy', true, 15_000 + 20_000 + 1, false],
  ])('%s', async (_case, lead, elapsed, healthy) => {
    const clock = new VirtualClock();
    const leases = inMemoryLeases({ scheduler: clock.scheduler });
    const el = leaderElector({ client: leases.client(), ...lock, identity: 'a', scheduler: clock.scheduler });
    if (lead) await firstValueFrom(el.tryAcquireOrRenew());
    const adaptor = healthzAdaptor(20_000, clock.scheduler);
    expect(adaptor.check()).toBeUndefined();
    adaptor.setElector(el);
    clock.advance(elapsed);
    const error = adaptor.check();
    if (healthy) expect(error).toBeUndefined();
    else expect(error?.message).toBe('failed election to renew leadership on lease lock');
  });

  it('leaderElection attaches its campaign while it runs and detaches on teardown', () => {
    const clock = new VirtualClock();
    const leases = inMemoryLeases({ scheduler: clock.scheduler });
    const adaptor = healthzAdaptor(20_000, clock.scheduler);
    const client = leases.client();
    const seen: boolean[] = [];
    const sub = leaderElection({
      client,
      ...lock,
      identity: 'a',
      scheduler: clock.scheduler,
      healthz: adaptor,
    }).subscribe((v) => seen.push(v));
    clock.advance(0);
    expect(seen).toEqual([false, true]);
    clock.advance(60_000);
    expect(adaptor.check()).toBeUndefined(); // renewing every 2 s
    // the network hangs: the campaign stops leading after renewDeadline, but the last record it saw still
    // names it (the release could not be written), so, as in client-go, the check fails once the renewal is
    // overdue past lease duration + timeout
    client.partition('hang');
    clock.advance(15_000 + 20_000);
    expect(seen).toEqual([false, true, false]);
    expect(adaptor.check()).toBeUndefined();
    clock.advance(2_000);
    expect(adaptor.check()?.message).toBe('failed election to renew leadership on lease lock');
    sub.unsubscribe();
    expect(adaptor.check()).toBeUndefined();
  });
});
