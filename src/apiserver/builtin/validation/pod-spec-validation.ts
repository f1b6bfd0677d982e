// validatePodSpec: a pod's spec, or a workload template's, as upstream's ValidatePodSpec checks it.
import { isIP } from 'node:net';
import type { StatusCause } from '../../api-status.ts';
import { validateContainers } from './container-validation.ts';
import { fieldError } from './field-error.ts';
import { formatErrors } from './format-rules.ts';
import { type Obj, shape } from './json-shape.ts';
import { validateLabels } from './labels-validation.ts';
import { validatePodOS } from './pod-os-validation.ts';
import { validateSchedulingConstraints } from './scheduling-constraints-validation.ts';
import { validateSecurityContext } from './security-context-validation.ts';
import { validateSysctls } from './sysctls-validation.ts';
import { validateVolumes } from './volume-validation.ts';

const MAX_INT32 = 2147483647;

/** How a pod spec is being validated. */
export interface PodSpecOptions {
  /**
   * Also check that containers exist and that each has a valid, unique name and an image. The generic
   * object validation already does this for pods, Jobs and the apps workloads; a CronJob's job
   * template needs it here.
   */
  readonly names?: boolean;
}

/** validatePodDNSConfig: nameservers under dnsPolicy None, at most 3 of them, IPs; search paths; option names. */
function dnsConfigCauses(spec: Obj, path: string): StatusCause[] {
  const config = spec.dnsConfig;
  const present = config !== undefined && config !== null;
  const c = shape.obj(config);
  const nameservers = Array.isArray(c.nameservers) ? (c.nameservers as unknown[]) : [];
  if (spec.dnsPolicy === 'None') {
    if (!present) return [fieldError.required(path, 'must provide `dnsConfig` when `dnsPolicy` is None')];
    if (nameservers.length === 0)
      return [
        fieldError.required(
          `${path}.nameservers`,
          'must provide at least one DNS nameserver when `dnsPolicy` is None',
        ),
      ];
  }
  if (!present) return [];
  const out: StatusCause[] = [];
  if (nameservers.length > 3)
    out.push(fieldError.invalid(`${path}.nameservers`, nameservers, 'must not have more than 3 nameservers'));
  nameservers.forEach((ns, i) => {
    if (isIP(shape.text(ns)) === 0)
      out.push(
        fieldError.invalid(
          `${path}.nameservers[${i}]`,
          ns,
          'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
        ),
      );
  });
  const searches = (Array.isArray(c.searches) ? c.searches : []).map((x) => shape.text(x));
  if (searches.length > 32)
    out.push(fieldError.invalid(`${path}.searches`, searches, 'must not have more than 32 search paths'));
  if (searches.join(' ').length > 2048)
    out.push(
      fieldError.invalid(
        `${path}.searches`,
        searches,
        'must not have more than 2048 characters (including spaces) in the search list',
      ),
    );
  searches.forEach((search, i) => {
    const name = search.replace(/\.$/, '');
    out.push(
      ...formatErrors
        .dns1123Subdomain(name)
        .map((m) => fieldError.invalid(`${path}.searches[${i}]`, name, m)),
    );
  });
  shape.list(c.options).forEach((option, i) => {
    if (shape.empty(option.name))
      out.push(fieldError.required(`${path}.options[${i}]`, 'Option.Name must not be empty'));
  });
  return out;
}

/**
 * The spec of a pod: volumes, containers and init containers (see `validateContainers`), the names it
 * refers to (service account, node, priority class: DNS subdomains; hostname and subdomain: DNS labels),
 * activeDeadlineSeconds in 1..2^31-1, the node selector's labels, `dnsConfig` under dnsPolicy None,
 * tolerations, topology spread and affinity, sysctls and the fields the pod's `os` forbids.
 * @param spec the pod spec
 * @param path its field path: `spec`, or `spec.template.spec` in a workload
 * @param options see PodSpecOptions
 * @returns the causes, empty when valid
 */
export function validatePodSpec(spec: unknown, path: string, options: PodSpecOptions = {}): StatusCause[] {
  const s = shape.obj(spec);
  const out: StatusCause[] = [];
  out.push(...validateVolumes(s.volumes, `${path}.volumes`));
  const volumes = new Set(shape.list(s.volumes).map((v) => shape.text(v.name ?? '')));
  const containerNames = new Set(shape.list(s.containers).map((c) => shape.text(c.name ?? '')));
  const common = {
    volumes,
    gracePeriod: shape.num(s.terminationGracePeriodSeconds) ?? 30,
    hostNetwork: s.hostNetwork === true,
    names: options.names === true,
  };
  if (options.names && shape.empty(s.containers)) out.push(fieldError.required(`${path}.containers`));
  out.push(
    ...validateContainers(s.containers, `${path}.containers`, {
      ...common,
      list: 'containers',
      otherNames: new Set(),
    }),
    ...validateContainers(s.initContainers, `${path}.initContainers`, {
      ...common,
      list: 'initContainers',
      otherNames: containerNames,
    }),
  );
  for (const [field, rule] of [
    ['serviceAccountName', formatErrors.dns1123Subdomain],
    ['nodeName', formatErrors.dns1123Subdomain],
    ['priorityClassName', formatErrors.dns1123Subdomain],
    ['hostname', formatErrors.dns1123Label],
    ['subdomain', formatErrors.dns1123Label],
  ] as const) {
    const value = shape.str(s[field]) ?? '';
    if (value !== '') out.push(...rule(value).map((m) => fieldError.invalid(`${path}.${field}`, value, m)));
  }
  const deadline = s.activeDeadlineSeconds;
  if (typeof deadline === 'number' && (deadline < 1 || deadline > MAX_INT32))
    out.push(
      fieldError.invalid(
        `${path}.activeDeadlineSeconds`,
        deadline,
        `must be between 1 and ${MAX_INT32}, inclusive`,
      ),
    );
  out.push(...validateLabels(s.nodeSelector, `${path}.nodeSelector`));
  out.push(...dnsConfigCauses(s, `${path}.dnsConfig`));
  out.push(...validateSchedulingConstraints(s, path));
  out.push(...validateSecurityContext('pod', s.securityContext, `${path}.securityContext`, s));
  out.push(...validateSysctls(shape.obj(s.securityContext).sysctls, `${path}.securityContext.sysctls`, s));
  out.push(...validatePodOS(s, path));
  const gates = shape.list(s.schedulingGates);
  gates.forEach((gate, i) => {
    const name = shape.str(gate.name) ?? '';
    out.push(
      ...formatErrors
        .qualifiedName(name)
        .map((m) => fieldError.invalid(`${path}.schedulingGates[${i}].name`, name, m)),
    );
  });
  if (gates.length > 0 && !shape.empty(s.nodeName))
    out.push(
      fieldError.forbidden(`${path}.nodeName`, 'cannot be set until all schedulingGates have been cleared'),
    );
  shape.list(s.readinessGates).forEach((gate, i) => {
    const type = shape.str(gate.conditionType) ?? '';
    out.push(
      ...formatErrors
        .qualifiedName(type)
        .map((m) => fieldError.invalid(`${path}.readinessGates[${i}].conditionType`, type, m)),
    );
  });
  return out;
}
