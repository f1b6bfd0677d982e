// Test builders for the kubelet's pure helpers: pods, runtime statuses and API container statuses.
import type { Container, ContainerStatus, Pod } from '../../../operators/api/core-v1.ts';
import type {
  RuntimeContainerStatus,
  RuntimePodStatus,
} from '../../../operators/kubelet/runtime-pod-status.ts';

/** A pod with the given containers (names) and policy. */
export function pod(
  containers: (string | Container)[],
  extra: {
    inits?: (string | Container)[];
    restartPolicy?: 'Always' | 'OnFailure' | 'Never';
    deleted?: boolean;
  } = {},
): Pod {
  const c = (x: string | Container): Container => (typeof x === 'string' ? { name: x, image: 'busybox' } : x);
  return {
    metadata: {
      name: 'foo',
      namespace: 'new',
      uid: '12345678',
      ...(extra.deleted ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}),
    },
    spec: {
      containers: containers.map(c),
      ...(extra.inits ? { initContainers: extra.inits.map(c) } : {}),
      ...(extra.restartPolicy ? { restartPolicy: extra.restartPolicy } : {}),
    },
  };
}

let seq = 0;
/** A runtime container instance. */
export function rc(
  name: string,
  state: RuntimeContainerStatus['state'],
  extra: Partial<RuntimeContainerStatus> = {},
): RuntimeContainerStatus {
  seq++;
  return {
    id: `id-${name}-${seq}`,
    name,
    state,
    attempt: 0,
    image: 'busybox',
    createdAt: 1000 - seq,
    ...extra,
  };
}

/** A runtime pod status with one ready sandbox (or `sandbox: false` for none / 'notready'). */
export function runtime(
  containers: RuntimeContainerStatus[],
  sandbox: 'ready' | 'notready' | false = 'ready',
): RuntimePodStatus {
  return {
    uid: '12345678',
    name: 'foo',
    namespace: 'new',
    ips: sandbox === 'ready' ? ['10.0.0.1'] : [],
    sandboxes: sandbox
      ? [{ id: 'sb1', ready: sandbox === 'ready', attempt: 0, createdAt: 0, ip: '10.0.0.1' }]
      : [],
    containers,
  };
}

/** API container statuses by shorthand. */
export const running = (name: string): ContainerStatus => ({
  name,
  state: { running: {} },
  ready: true,
  restartCount: 0,
  image: '',
  imageID: '',
});
export const succeeded = (name: string): ContainerStatus => ({
  name,
  state: { terminated: { exitCode: 0 } },
  ready: false,
  restartCount: 0,
  image: '',
  imageID: '',
});
export const failed = (name: string): ContainerStatus => ({
  name,
  state: { terminated: { exitCode: 42 } },
  ready: false,
  restartCount: 0,
  image: '',
  imageID: '',
});
export const waiting = (name: string): ContainerStatus => ({
  name,
  state: { waiting: {} },
  ready: false,
  restartCount: 0,
  image: '',
  imageID: '',
});
export const waitingWithLastTermination = (name: string, exitCode = 0): ContainerStatus => ({
  name,
  state: { waiting: {} },
  lastState: { terminated: { exitCode } },
  ready: false,
  restartCount: 1,
  image: '',
  imageID: '',
});
