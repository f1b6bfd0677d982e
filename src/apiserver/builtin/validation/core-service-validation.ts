// validateService: a Service's spec as upstream's ValidateService checks it (ports, type rules, selector, IPs, session affinity).
import { isIP } from 'node:net';
import type { KubeObject } from '../../../../operators/types.ts';
import type { StatusCause } from '../../api-status.ts';
import { fieldError } from './field-error.ts';
import { formatErrors } from './format-rules.ts';
import { type Obj, shape } from './json-shape.ts';
import { validateLabels } from './labels-validation.ts';
import { validatePortNumOrName } from './port-num-or-name.ts';

const IP_EXAMPLE = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';

function portCauses(port: Obj, at: string, requireName: boolean, names: Set<string>): StatusCause[] {
  const out: StatusCause[] = [];
  const name = shape.str(port.name) ?? '';
  if (requireName && name === '') out.push(fieldError.required(`${at}.name`));
  else if (name !== '') {
    out.push(...formatErrors.dns1123Label(name).map((m) => fieldError.invalid(`${at}.name`, name, m)));
    if (names.has(name)) out.push(fieldError.duplicate(`${at}.name`, name));
    names.add(name);
  }
  const number = port.port;
  out.push(
    ...(typeof number === 'number'
      ? formatErrors.portNumber(number)
      : ['must be between 1 and 65535, inclusive']
    ).map((m) => fieldError.invalid(`${at}.port`, number ?? 0, m)),
  );
  if (port.targetPort !== undefined && port.targetPort !== null && port.targetPort !== 0)
    out.push(...validatePortNumOrName(port.targetPort, `${at}.targetPort`));
  const appProtocol = shape.str(port.appProtocol);
  if (appProtocol !== undefined)
    out.push(
      ...formatErrors
        .qualifiedName(appProtocol)
        .map((m) => fieldError.invalid(`${at}.appProtocol`, appProtocol, m)),
    );
  return out;
}

function portsCauses(spec: Obj, type: string): StatusCause[] {
  const out: StatusCause[] = [];
  const ports = shape.list(spec.ports);
  const names = new Set<string>();
  const seen = new Set<string>();
  const nodePorts = new Set<string>();
  ports.forEach((port, i) => {
    const at = `spec.ports[${i}]`;
    out.push(...portCauses(port, at, ports.length > 1, names));
    const protocol = shape.text(port.protocol ?? 'TCP');
    const key = `${protocol}/${shape.text(port.port)}`;
    if (seen.has(key)) out.push(fieldError.duplicate(at, { port: port.port, protocol }));
    seen.add(key);
    const nodePort = port.nodePort;
    if (nodePort === undefined || nodePort === null || nodePort === 0) return;
    if (type === 'ClusterIP' || type === 'ExternalName')
      out.push(fieldError.forbidden(`${at}.nodePort`, `may not be used when \`type\` is '${type}'`));
    else {
      out.push(
        ...formatErrors
          .portNumber(Number(nodePort))
          .map((m) => fieldError.invalid(`${at}.nodePort`, nodePort, m)),
      );
      const nodeKey = `${protocol}/${shape.text(nodePort)}`;
      if (nodePorts.has(nodeKey)) out.push(fieldError.duplicate(`${at}.nodePort`, nodePort));
      nodePorts.add(nodeKey);
    }
  });
  return out;
}

function addressCauses(spec: Obj, type: string): StatusCause[] {
  const out: StatusCause[] = [];
  const clusterIP = shape.str(spec.clusterIP) ?? '';
  const clusterIPs = (Array.isArray(spec.clusterIPs) ? spec.clusterIPs : []).map(String);
  if (type === 'ExternalName') {
    if (clusterIP !== '' || clusterIPs.length > 0)
      out.push(fieldError.forbidden('spec.clusterIPs', 'may not be set for ExternalName services'));
    const name = (shape.str(spec.externalName) ?? '').replace(/\.$/, '');
    if (name === '') out.push(fieldError.required('spec.externalName'));
    else
      out.push(
        ...formatErrors.dns1123Subdomain(name).map((m) => fieldError.invalid('spec.externalName', name, m)),
      );
  }
  const ips = clusterIPs.length > 0 ? clusterIPs : clusterIP !== '' ? [clusterIP] : [];
  ips.forEach((ip, i) => {
    if (ip !== 'None' && !isIP(ip)) out.push(fieldError.invalid(`spec.clusterIPs[${i}]`, ip, IP_EXAMPLE));
  });
  if (clusterIPs.length > 0 && clusterIP !== '' && clusterIPs[0] !== clusterIP)
    out.push(fieldError.invalid('spec.clusterIPs', clusterIPs, 'first value must match `clusterIP`'));
  (Array.isArray(spec.externalIPs) ? spec.externalIPs : []).forEach((ip, i) => {
    if (!isIP(shape.text(ip))) out.push(fieldError.invalid(`spec.externalIPs[${i}]`, ip, IP_EXAMPLE));
  });
  return out;
}

const IP_FAMILIES = ['IPv4', 'IPv6'];
const IP_FAMILY_POLICIES = ['PreferDualStack', 'RequireDualStack', 'SingleStack'];

function ipFamilyCauses(spec: Obj, type: string): StatusCause[] {
  const out: StatusCause[] = [];
  const families = Array.isArray(spec.ipFamilies) ? (spec.ipFamilies as unknown[]) : [];
  const policy = spec.ipFamilyPolicy;
  if (type === 'ExternalName') {
    if (families.length > 0)
      out.push(fieldError.forbidden('spec.ipFamilies', 'may not be set for ExternalName services'));
    if (policy !== undefined && policy !== null)
      out.push(fieldError.forbidden('spec.ipFamilyPolicy', 'may not be set for ExternalName services'));
  }
  const seen = new Set<string>();
  families.forEach((family, i) => {
    const name = shape.text(family);
    if (!IP_FAMILIES.includes(name))
      out.push(fieldError.notSupported(`spec.ipFamilies[${i}]`, family, IP_FAMILIES));
    if (seen.has(name)) out.push(fieldError.duplicate(`spec.ipFamilies[${i}]`, family));
    seen.add(name);
  });
  if (families.length > 2)
    out.push(fieldError.invalid('spec.ipFamilies', families, 'may specify no more than 2 IP families'));
  if (policy !== undefined && policy !== null && !IP_FAMILY_POLICIES.includes(shape.text(policy)))
    out.push(fieldError.notSupported('spec.ipFamilyPolicy', policy, IP_FAMILY_POLICIES));
  return out;
}

/**
 * A Service: ports (a valid, unique name, required once there are several; a port number; a target port
 * number or name; unique port/protocol pairs; nodePorts only for NodePort and LoadBalancer services),
 * at least one port unless headless or ExternalName, an ExternalName service's externalName and no
 * cluster IP, cluster and external IPs that parse, known and unique IP families (at most two) and
 * family policy (neither on ExternalName services), a label-map selector, and ClientIP affinity
 * timeouts within 1..86400.
 * @param service the Service about to be stored
 * @returns the causes, empty when valid
 */
export function validateService(service: KubeObject): StatusCause[] {
  const spec = shape.obj((service as Obj).spec);
  const type = shape.text(shape.defaulted(spec.type, 'ClusterIP'));
  const out: StatusCause[] = [];
  const headless = spec.clusterIP === 'None';
  if (shape.list(spec.ports).length === 0 && !headless && type !== 'ExternalName')
    out.push(fieldError.required('spec.ports'));
  out.push(...portsCauses(spec, type), ...addressCauses(spec, type), ...ipFamilyCauses(spec, type));
  if (type !== 'ExternalName' || spec.selector !== undefined)
    out.push(...validateLabels(spec.selector, 'spec.selector'));
  const timeout = shape.num(shape.obj(shape.obj(spec.sessionAffinityConfig).clientIP).timeoutSeconds);
  if (spec.sessionAffinity === 'ClientIP' && timeout !== undefined && (timeout <= 0 || timeout > 86400))
    out.push(
      fieldError.invalid(
        'spec.sessionAffinityConfig.clientIP.timeoutSeconds',
        timeout,
        'must be greater than 0 and less than 86400',
      ),
    );
  if (
    shape.defaulted(spec.sessionAffinity, 'None') === 'None' &&
    spec.sessionAffinityConfig !== undefined &&
    spec.sessionAffinityConfig !== null
  )
    out.push(
      fieldError.forbidden('spec.sessionAffinityConfig', 'must not be set when session affinity is None'),
    );
  for (const field of ['allocateLoadBalancerNodePorts', 'loadBalancerClass'])
    if (type !== 'LoadBalancer' && spec[field] !== undefined && spec[field] !== null)
      out.push(fieldError.forbidden(`spec.${field}`, "may only be used when `type` is 'LoadBalancer'"));
  const lbClass = shape.str(spec.loadBalancerClass);
  if (type === 'LoadBalancer' && lbClass !== undefined)
    out.push(
      ...formatErrors
        .qualifiedName(lbClass)
        .map((m) => fieldError.invalid('spec.loadBalancerClass', lbClass, m)),
    );
  if (
    (type === 'ClusterIP' || type === 'ExternalName') &&
    shape.empty(spec.externalIPs) &&
    spec.externalTrafficPolicy !== undefined &&
    spec.externalTrafficPolicy !== null &&
    spec.externalTrafficPolicy !== ''
  )
    out.push(
      fieldError.invalid(
        'spec.externalTrafficPolicy',
        spec.externalTrafficPolicy,
        'may only be set for externally-accessible services',
      ),
    );
  return out;
}
