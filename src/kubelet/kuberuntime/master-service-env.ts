// masterServiceEnv: the KUBERNETES_SERVICE_* and KUBERNETES_PORT_* variables every container gets, so in-cluster clients find the API server.
/**
 * The environment the kubelet derives from the `kubernetes` Service in `default` (envvars.FromServices
 * for a service with one port named `https`). kube-rx has no Service proxy, so the address is the API
 * server the kubelet itself talks to, which pods on the host network reach directly.
 *
 * @example masterServiceEnv('https://127.0.0.1:6443')
 * // KUBERNETES_SERVICE_HOST=127.0.0.1 KUBERNETES_SERVICE_PORT=6443 KUBERNETES_SERVICE_PORT_HTTPS=6443
 * // KUBERNETES_PORT=tcp://127.0.0.1:6443 KUBERNETES_PORT_6443_TCP=... _PROTO=tcp _PORT=6443 _ADDR=127.0.0.1
 * @param server the API server URL (`https://host:port`); no port means 443
 * @returns the variables in upstream's order, or none for a URL that is not http(s)
 */
export function masterServiceEnv(server: string | undefined): { key: string; value: string }[] {
  if (!server) return [];
  let url: URL;
  try {
    url = new URL(server);
  } catch {
    return [];
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return [];
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  const hostPort = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
  const prefix = `KUBERNETES_PORT_${port}_TCP`;
  return [
    { key: 'KUBERNETES_SERVICE_HOST', value: host },
    { key: 'KUBERNETES_SERVICE_PORT', value: port },
    { key: 'KUBERNETES_SERVICE_PORT_HTTPS', value: port },
    { key: 'KUBERNETES_PORT', value: `tcp://${hostPort}` },
    { key: prefix, value: `tcp://${hostPort}` },
    { key: `${prefix}_PROTO`, value: 'tcp' },
    { key: `${prefix}_PORT`, value: port },
    { key: `${prefix}_ADDR`, value: host },
  ];
}
