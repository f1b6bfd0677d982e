// The real prober (prober/prober.go): runs exec, HTTP GET and TCP probes against a container.
import type { Container, ContainerPort, Pod, PodStatus, Probe } from '../../../operators/api/core-v1.ts';
import type { ProbeResult, ProbeType } from '../../../operators/kubelet/probe-worker-state.ts';
import { type Logger, silentLogger } from '../../../operators/logger.ts';
import type { ContainerRuntime } from '../../../streams/runtimes/runtime.ts';
import { grpcProbe } from './grpc-probe.ts';
import { httpProbe } from './http-probe.ts';
import type { ProbeFn } from './probe-worker.ts';
import { tcpProbe } from './tcp-probe.ts';

/** The kubelet's probe User-Agent (`kube-probe/<major>.<minor>`). */
export const PROBE_USER_AGENT = 'kube-probe/1.33';

/** How often a probe that errors (not fails) is tried before its result is thrown away. */
const MAX_PROBE_RETRIES = 3;

export interface ProberConfig {
  /** For exec probes: runs the command in the container. */
  runtime?: Pick<ContainerRuntime, 'execSync'>;
  /**
   * The address HTTP and TCP probes use when the probe names no host; default the pod IP
   * (`status.podIP`). A process runtime, whose containers are host processes, passes
   * `() => '127.0.0.1'`.
   */
  podHost?: (pod: Pod, status: PodStatus) => string | undefined;
  /** Told of every failed probe with upstream's output, e.g. to record an `Unhealthy` event. */
  onFailure?: (failure: { probeType: ProbeType; pod: Pod; container: Container; output: string }) => void;
  logger?: Logger;
}

/** A probe's port: a number, or the name of one of the container's ports. */
export function resolveProbePort(port: number | string, container: Container): number {
  if (typeof port === 'number') return port;
  if (/^\d+$/.test(port)) return Number(port);
  const found = (container.ports ?? []).find((p: ContainerPort) => p.name === port);
  if (!found) throw new Error(`couldn't find port: ${port} in ${container.name}`);
  return found.containerPort;
}

function probeOf(type: ProbeType, container: Container): Probe | undefined {
  return type === 'liveness'
    ? container.livenessProbe
    : type === 'readiness'
      ? container.readinessProbe
      : container.startupProbe;
}

function isTimeout(error: unknown): boolean {
  const e = error as { code?: string; message?: string } | undefined;
  return e?.code === 'ETIMEDOUT' || e?.code === 'KUBE_RX_TIMEOUT' || /timed? ?out/i.test(e?.message ?? '');
}

/**
 * The real probe function for {@link proberManager}: exec runs the command through the runtime's
 * `execSync` (exit 0 is success; a command that outlives timeoutSeconds fails); HTTP GET succeeds on
 * 200–399 (scheme, host, path, headers as the probe says; host default the pod's address); TCP
 * succeeds when the port accepts a connection; gRPC calls grpc.health.v1.Health/Check and succeeds on
 * SERVING. A probe that cannot be run (no runtime, unknown port name, no address) is an error, tried up
 * to 3 times and then thrown away, as upstream does.
 *
 * @param config the runtime for exec, the pod address, a failure hook
 * @returns the probe function
 */
export function prober(config: ProberConfig = {}): ProbeFn {
  const log = (config.logger ?? silentLogger).child({ component: 'prober' });
  const hostOf = config.podHost ?? ((_pod: Pod, status: PodStatus) => status.podIP);

  const runOnce = async (
    type: ProbeType,
    pod: Pod,
    status: PodStatus,
    container: Container,
    containerId: string,
  ): Promise<{ result: ProbeResult; output: string }> => {
    const probe = probeOf(type, container);
    if (!probe) throw new Error(`${type} probe is missing on container ${container.name}`);
    const timeoutSeconds = probe.timeoutSeconds ?? 1;
    if (probe.exec) {
      if (!config.runtime) throw new Error('exec probes need a container runtime');
      const command = probe.exec.command ?? [];
      try {
        const out = await config.runtime.execSync(containerId, command, timeoutSeconds);
        const output = `${out.stdout.toString('utf8')}${out.stderr.toString('utf8')}`;
        return { result: out.exitCode === 0 ? 'Success' : 'Failure', output };
      } catch (error) {
        if (isTimeout(error)) {
          return { result: 'Failure', output: `command ${JSON.stringify(command)} timed out` };
        }
        throw error;
      }
    }
    if (probe.httpGet) {
      const g = probe.httpGet;
      const host = g.host || hostOf(pod, status);
      if (!host) throw new Error('pod has no IP to probe');
      const port = resolveProbePort(g.port, container);
      const scheme = (g.scheme ?? 'HTTP').toLowerCase();
      let path = g.path ?? '/';
      if (!path.startsWith('/')) path = `/${path}`;
      const hostPart = host.includes(':') ? `[${host}]` : host;
      const url = new URL(`${scheme}://${hostPart}:${port}${path}`);
      const headers: Record<string, string> = { 'User-Agent': PROBE_USER_AGENT, Accept: '*/*' };
      for (const h of g.httpHeaders ?? []) {
        if (h.name.toLowerCase() === 'host') headers.Host = h.value;
        else headers[h.name] = h.value;
      }
      return httpProbe({ url, headers, timeoutMs: timeoutSeconds * 1000 });
    }
    if (probe.tcpSocket) {
      const host = probe.tcpSocket.host || hostOf(pod, status);
      if (!host) throw new Error('pod has no IP to probe');
      return tcpProbe(host, resolveProbePort(probe.tcpSocket.port, container), timeoutSeconds * 1000);
    }
    if (probe.grpc) {
      const host = hostOf(pod, status);
      if (!host) throw new Error('pod has no IP to probe');
      return grpcProbe(
        host,
        probe.grpc.port,
        probe.grpc.service ?? '',
        timeoutSeconds * 1000,
        PROBE_USER_AGENT,
      );
    }
    throw new Error(
      `missing probe handler for ${pod.metadata.namespace}/${pod.metadata.name}:${container.name}`,
    );
  };

  return async (type, pod, status, container, containerId) => {
    let lastError: unknown;
    for (let i = 0; i < MAX_PROBE_RETRIES; i++) {
      try {
        const { result, output } = await runOnce(type, pod, status, container, containerId);
        if (result === 'Failure') {
          log.debug(
            {
              pod: `${pod.metadata.namespace}/${pod.metadata.name}`,
              container: container.name,
              probeType: type,
              output,
            },
            'Probe failed',
          );
          config.onFailure?.({ probeType: type, pod, container, output });
        }
        return result;
      } catch (error) {
        lastError = error;
      }
    }
    throw lastError;
  };
}
