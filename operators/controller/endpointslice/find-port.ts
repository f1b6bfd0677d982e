// findPort: the container port a Service port's targetPort names in one pod (upstream's podutil.FindPort).
import type { Pod } from '../../api/core-v1.ts';
import type { ServicePort } from './endpoint-slice-types.ts';

/**
 * The port number a Service port reaches in `pod`: a numeric targetPort as it is (absent: the Service
 * port itself); a named one resolved against the pod's container ports of the same name and protocol
 * (regular containers, then restartable init containers, i.e. sidecars); undefined when no port has
 * that name ("no suitable port for manifest"), so the caller leaves that port out for that pod.
 */
export function findPort(pod: Pod, servicePort: ServicePort): number | undefined {
  const target = servicePort.targetPort ?? servicePort.port;
  if (typeof target === 'number') return target;
  if (/^\d+$/.test(target)) return Number(target);
  const protocol = servicePort.protocol ?? 'TCP';
  const sidecars = (pod.spec.initContainers ?? []).filter((c) => c.restartPolicy === 'Always');
  for (const container of [...pod.spec.containers, ...sidecars]) {
    for (const port of container.ports ?? []) {
      if (port.name === target && (port.protocol ?? 'TCP') === protocol) return port.containerPort;
    }
  }
  return undefined;
}
