// Properties of computePodActions with sidecars: init containers start in spec order, at most one regular one at a time, kills only what runs, a new sandbox starts clean.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Container, Pod } from '../../../operators/api/core-v1.ts';
import { computePodActions } from '../../../operators/kubelet/compute-pod-actions.ts';
import { containerHash } from '../../../operators/kubelet/container-hash.ts';
import type {
  RuntimeContainerStatus,
  RuntimePodStatus,
} from '../../../operators/kubelet/runtime-pod-status.ts';

type State = 'missing' | 'created' | 'running' | 'exited0' | 'exited1' | 'unknown';
const arbState = fc.constantFrom<State>('missing', 'created', 'running', 'exited0', 'exited1', 'unknown');
const arbProbe = fc.constantFrom<'Success' | 'Failure' | undefined>('Success', 'Failure', undefined);

const arbCase = fc.record({
  policy: fc.constantFrom<'Always' | 'OnFailure' | 'Never'>('Always', 'OnFailure', 'Never'),
  inits: fc.array(
    fc.record({ sidecar: fc.boolean(), probes: fc.boolean(), state: arbState, stale: fc.boolean() }),
    { maxLength: 3 },
  ),
  apps: fc.array(fc.record({ state: arbState, stale: fc.boolean() }), { minLength: 1, maxLength: 3 }),
  sandbox: fc.constantFrom<'ready' | 'notready' | 'none'>('ready', 'ready', 'notready', 'none'),
  liveness: arbProbe,
  startup: arbProbe,
});

type Case = typeof arbCase extends fc.Arbitrary<infer T> ? T : never;

function build(c: Case): { pod: Pod; status: RuntimePodStatus } {
  const inits: Container[] = c.inits.map((x, i) => ({
    name: `init${i}`,
    image: 'busybox',
    ...(x.sidecar ? { restartPolicy: 'Always' as const } : {}),
    ...(x.probes ? { livenessProbe: {}, startupProbe: {} } : {}),
  }));
  const apps: Container[] = c.apps.map((_x, i) => ({ name: `app${i}`, image: 'busybox' }));
  const pod: Pod = {
    metadata: { name: 'p', namespace: 'ns', uid: 'u' },
    spec: { restartPolicy: c.policy, initContainers: inits, containers: apps },
  };
  const containers: RuntimeContainerStatus[] = [];
  const add = (container: Container, state: State, stale: boolean, i: number) => {
    if (state === 'missing') return;
    containers.push({
      id: `${container.name}-id`,
      name: container.name,
      state: state === 'exited0' || state === 'exited1' ? 'exited' : state,
      attempt: 0,
      image: 'busybox',
      createdAt: 100 - i,
      hash: stale ? 'stale' : containerHash(container),
      ...(state === 'exited0' ? { exitCode: 0 } : state === 'exited1' ? { exitCode: 1 } : {}),
    });
  };
  c.inits.forEach((x, i) => {
    add(inits[i] as Container, x.state, x.stale, i);
  });
  c.apps.forEach((x, i) => {
    add(apps[i] as Container, x.state, x.stale, i + 10);
  });
  return {
    pod,
    status: {
      uid: 'u',
      name: 'p',
      namespace: 'ns',
      ips: [],
      sandboxes:
        c.sandbox === 'none'
          ? []
          : [{ id: 'sb', ready: c.sandbox === 'ready', attempt: 0, createdAt: 0, ip: '' }],
      containers,
    },
  };
}

describe('computePodActions properties', () => {
  it('plans init containers in order, one regular at a time, and only kills what runs', () => {
    fc.assert(
      fc.property(arbCase, (c) => {
        const { pod, status } = build(c);
        const actions = computePodActions(pod, status, {
          liveness: () => c.liveness,
          startup: () => c.startup,
        });
        const inits = pod.spec.initContainers ?? [];
        const starts = actions.initContainersToStart;
        // spec order, no repeats, valid indexes
        expect(starts).toEqual([...new Set(starts)].sort((a, b) => a - b));
        for (const i of starts) expect(i >= 0 && i < inits.length).toBe(true);
        // never two run-to-completion init containers at once
        expect(starts.filter((i) => inits[i]?.restartPolicy !== 'Always').length).toBeLessThanOrEqual(1);
        // kills name containers the runtime has running or in an unknown state
        for (const id of actions.containersToKill.keys()) {
          const state = status.containers.find((x) => x.id === id)?.state;
          expect(['running', 'unknown']).toContain(state);
        }
        // a container to start is not left running: it is killed first, alone or with the whole pod
        const names = [
          ...starts.map((i) => inits[i]?.name),
          ...actions.containersToStart.map((i) => pod.spec.containers[i]?.name),
        ];
        for (const name of names) {
          const current = status.containers.find((x) => x.name === name);
          if (current?.state === 'running')
            expect(actions.killPod || actions.containersToKill.has(current.id)).toBe(true);
        }
        // a new sandbox starts from the first init container, or the app containers when there are none
        if (actions.createSandbox) {
          expect(actions.containersToKill.size).toBe(0);
          if (inits.length > 0)
            expect({ starts, apps: actions.containersToStart }).toEqual({ starts: [0], apps: [] });
        }
        // a pod being killed in place starts nothing
        if (actions.killPod && !actions.createSandbox) {
          expect(starts).toEqual([]);
          expect(actions.containersToStart).toEqual([]);
        }
      }),
      { numRuns: 2000 },
    );
  });
});
