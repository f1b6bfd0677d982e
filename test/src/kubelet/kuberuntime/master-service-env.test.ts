// masterServiceEnv and the runtime manager's use of it and of remounts: containers get KUBERNETES_SERVICE_*; a running pod's token is rewritten once refreshed.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Pod } from '../../../../operators/api/core-v1.ts';
import type { KubeObjectReader } from '../../../../src/kubelet/kube-objects.ts';
import { kubeRuntimeManager } from '../../../../src/kubelet/kuberuntime/kuberuntime-manager.ts';
import { masterServiceEnv } from '../../../../src/kubelet/kuberuntime/master-service-env.ts';
import { tokenManager } from '../../../../src/kubelet/token/token-manager.ts';
import { podVolumes } from '../../../../src/kubelet/volumes/pod-volumes.ts';
import { VirtualClock } from '../../../../src/testing/virtual-clock.ts';
import type { ContainerConfig, ContainerRuntime } from '../../../../streams/runtimes/runtime.ts';
import { simulatedRuntime } from '../../../../streams/runtimes/simulated/simulated-runtime.ts';

describe('masterServiceEnv', () => {
  it.each([
    {
      server: 'https://127.0.0.1:6443',
      env: {
        KUBERNETES_SERVICE_HOST: '127.0.0.1',
        KUBERNETES_SERVICE_PORT: '6443',
        KUBERNETES_SERVICE_PORT_HTTPS: '6443',
        KUBERNETES_PORT: 'tcp://127.0.0.1:6443',
        KUBERNETES_PORT_6443_TCP: 'tcp://127.0.0.1:6443',
        KUBERNETES_PORT_6443_TCP_PROTO: 'tcp',
        KUBERNETES_PORT_6443_TCP_PORT: '6443',
        KUBERNETES_PORT_6443_TCP_ADDR: '127.0.0.1',
      },
    },
    {
      server: 'https://[fd00::1]',
      env: {
        KUBERNETES_SERVICE_HOST: 'fd00::1',
        KUBERNETES_SERVICE_PORT: '443',
        KUBERNETES_SERVICE_PORT_HTTPS: '443',
        KUBERNETES_PORT: 'tcp://[fd00::1]:443',
        KUBERNETES_PORT_443_TCP: 'tcp://[fd00::1]:443',
        KUBERNETES_PORT_443_TCP_PROTO: 'tcp',
        KUBERNETES_PORT_443_TCP_PORT: '443',
        KUBERNETES_PORT_443_TCP_ADDR: 'fd00::1',
      },
    },
    { server: undefined, env: {} },
    { server: 'not a url', env: {} },
    { server: 'unix:///run/api.sock', env: {} },
  ])('$server', ({ server, env }) => {
    expect(Object.fromEntries(masterServiceEnv(server).map((e) => [e.key, e.value]))).toEqual(env);
  });
});

describe('kubeRuntimeManager with service env and a token manager', () => {
  let clock: VirtualClock;
  let dir: string;
  let runtime: ContainerRuntime & { close(): Promise<void> };
  const created: ContainerConfig[] = [];
  const reader: KubeObjectReader = {
    configMap: async (_ns, name) => (name === 'kube-root-ca.crt' ? { data: { 'ca.crt': 'CA' } } : undefined),
    secret: async () => undefined,
  };
  beforeEach(async () => {
    clock = new VirtualClock();
    const simulated = simulatedRuntime({ scheduler: clock.scheduler, logs: 'memory' });
    runtime = Object.assign(Object.create(simulated) as typeof simulated, {
      createContainer: (
        sandboxId: string,
        config: ContainerConfig,
        sandbox: Parameters<ContainerRuntime['createContainer']>[2],
      ) => {
        created.push(config);
        return simulated.createContainer(sandboxId, config, sandbox);
      },
    });
    dir = await mkdtemp(join(tmpdir(), 'kube-rx-krm-token-'));
    created.length = 0;
  });
  afterEach(async () => {
    await runtime.close();
    await rm(dir, { recursive: true, force: true });
  });

  const pod = (): Pod => ({
    metadata: { name: 'web', namespace: 'ns', uid: 'u1' },
    spec: {
      restartPolicy: 'Always',
      serviceAccountName: 'default',
      containers: [
        {
          name: 'main',
          image: 'busybox',
          command: ['sleep', '100000'],
          env: [{ name: 'KUBERNETES_SERVICE_PORT', value: 'mine' }],
          volumeMounts: [{ name: 'sa', mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' }],
        },
      ],
      volumes: [
        {
          name: 'sa',
          projected: {
            sources: [
              { serviceAccountToken: { path: 'token', expirationSeconds: 3600 } },
              { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
            ],
          },
        },
      ],
    },
  });

  it('adds the service env after the container’s own, and rewrites the token of a running pod once it is due', async () => {
    let n = 0;
    const tokens = tokenManager({
      getToken: async (_ns, _name, request) => ({
        ...request,
        status: { token: `t${++n}`, expirationTimestamp: new Date(clock.now() + 3_600_000).toISOString() },
      }),
      now: () => clock.now(),
      random: () => 0,
    });
    const krm = kubeRuntimeManager({
      runtime,
      podLogsDir: join(dir, 'logs'),
      volumes: podVolumes({ rootDir: dir, reader, tokens, now: () => clock.now() }),
      reader,
      recordEvent: () => undefined,
      node: () => ({ hostIP: '10.0.0.9' }),
      serviceEnv: masterServiceEnv('https://10.0.0.1:6443'),
      now: () => clock.now(),
    });
    const sync = async () => krm.syncPod(pod(), await krm.getPodStatus('u1', 'web', 'ns'));
    await sync();
    const env = Object.fromEntries((created[0]?.envs ?? []).map((e) => [e.key, e.value]));
    expect(env.KUBERNETES_SERVICE_HOST).toBe('10.0.0.1');
    expect(env.KUBERNETES_SERVICE_PORT).toBe('mine');
    expect(created[0]?.envs[0]).toEqual({ key: 'KUBERNETES_SERVICE_PORT', value: 'mine' });
    const token = join(dir, 'pods', 'u1', 'volumes', 'kubernetes.io~projected', 'sa', 'token');
    expect(await readFile(token, 'utf8')).toBe('t1');
    await sync();
    expect(n).toBe(1);
    clock.advance(49 * 60_000);
    await sync();
    expect(n).toBe(2);
    expect(created).toHaveLength(1);
    expect(await readFile(token, 'utf8')).toBe('t2');
  });
});
