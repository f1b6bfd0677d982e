// Validation of a defaulted KubeSchedulerConfiguration, as upstream's validation.go: every error names its field path.
import { labelKeyErrors } from '../../../operators/label-selector.ts';
import { isExtendedResourceName } from '../../../operators/scheduling/plugins/node-resources/node-resources-fit.ts';
import { parseGoDuration } from '../../kubelet/go-duration.ts';
import { duplicate, type FieldError, invalid, required, unsupported } from './field-error.ts';
import { PLUGIN_HELPER_ARGS_VALIDATORS } from './plugin-args-validators.ts';
import {
  EXTENSION_POINTS,
  type KubeSchedulerConfiguration,
  type KubeSchedulerProfile,
  type PluginSet,
  SCHEDULER_CONFIG_API_VERSION,
} from './types.ts';
import { PLUGIN_ARGS_VALIDATORS, type PluginArgsValidator } from './validate-plugin-args.ts';

/** Options of {@link validateConfiguration}. */
export interface ValidateOptions {
  /** Plugin names that exist (the in-tree registry merged with the out-of-tree one); unset: not checked. */
  knownPlugins?: ReadonlySet<string>;
  /** Args validators by plugin name, added to (and overriding) the in-tree ones. */
  argsValidators?: Readonly<Record<string, PluginArgsValidator>>;
}

/**
 * Why `name` is not an extended resource name, as upstream's validateExtendedResourceName: a qualified
 * name first, then a domain-prefixed name outside kubernetes.io that is valid behind `requests.`.
 */
function extendedResourceNameErrors(name: string): string[] {
  const qualified = labelKeyErrors(name);
  if (qualified.length > 0) return qualified;
  if (!isExtendedResourceName(name) || labelKeyErrors(`requests.${name}`).length > 0)
    return ['is an invalid extended resource name'];
  return [];
}

/** Plugins removed from v1; naming them is an error. */
const REMOVED_PLUGINS = ['AzureDiskLimits', 'CinderLimits', 'EBSLimits', 'GCEPDLimits'];

function durationMs(field: string, value: string | undefined, errors: FieldError[]): number | undefined {
  if (value === undefined) return undefined;
  try {
    return parseGoDuration(field, value);
  } catch {
    errors.push(invalid(field, value, 'not a duration (e.g. 15s, 500ms, 1m30s)'));
    return undefined;
  }
}

function validatePercentage(field: string, value: number | undefined): FieldError[] {
  if (value === undefined) return [];
  return !Number.isInteger(value) || value < 0 || value > 100
    ? [invalid(field, value, 'not in valid range [0-100]')]
    : [];
}

function validatePluginSet(path: string, set: PluginSet | undefined, options: ValidateOptions): FieldError[] {
  const errors: FieldError[] = [];
  (set?.enabled ?? []).forEach((p, i) => {
    const field = `${path}.enabled[${i}]`;
    if (!p?.name) errors.push(required(`${field}.name`));
    else if (REMOVED_PLUGINS.includes(p.name))
      errors.push(
        invalid(
          field,
          p.name,
          `was invalid in version "${SCHEDULER_CONFIG_API_VERSION}" (KubeSchedulerConfiguration is version "${SCHEDULER_CONFIG_API_VERSION}")`,
        ),
      );
    else if (options.knownPlugins && !options.knownPlugins.has(p.name))
      errors.push(invalid(field, p.name, `plugin "${p.name}" does not exist`));
    if (p?.weight !== undefined && (!Number.isInteger(p.weight) || p.weight < 0))
      errors.push(invalid(`${field}.weight`, p.weight, 'must be a non-negative integer'));
  });
  return errors;
}

function validateProfile(
  path: string,
  profile: KubeSchedulerProfile,
  options: ValidateOptions,
): FieldError[] {
  const errors: FieldError[] = [];
  if (!profile.schedulerName) errors.push(required(`${path}.schedulerName`));
  errors.push(...validatePercentage(`${path}.percentageOfNodesToScore`, profile.percentageOfNodesToScore));
  for (const point of ['multiPoint', ...EXTENSION_POINTS] as const) {
    errors.push(...validatePluginSet(`${path}.plugins.${point}`, profile.plugins?.[point], options));
  }
  const validators = {
    ...PLUGIN_ARGS_VALIDATORS,
    ...PLUGIN_HELPER_ARGS_VALIDATORS,
    ...options.argsValidators,
  };
  const seen = new Set<string>();
  (profile.pluginConfig ?? []).forEach((pc, j) => {
    const field = `${path}.pluginConfig[${j}]`;
    if (seen.has(pc.name)) errors.push(duplicate(field, pc.name));
    seen.add(pc.name);
    if (REMOVED_PLUGINS.includes(pc.name)) {
      errors.push(
        invalid(
          field,
          pc.name,
          `was invalid in version "${SCHEDULER_CONFIG_API_VERSION}" (KubeSchedulerConfiguration is version "${SCHEDULER_CONFIG_API_VERSION}")`,
        ),
      );
      return;
    }
    const validator = validators[pc.name];
    const args = pc.args ?? {};
    const kind = args.kind;
    if (validator && kind !== undefined && kind !== `${pc.name}Args`) {
      errors.push(invalid(`${field}.args`, kind, 'has to match plugin args'));
      return;
    }
    if (validator) errors.push(...validator(`${field}.args`, args));
  });
  return errors;
}

function sameQueueSort(a: PluginSet | undefined, b: PluginSet | undefined): boolean {
  return JSON.stringify(a ?? {}) === JSON.stringify(b ?? {});
}

/**
 * Validates a configuration that {@link setDefaults} has defaulted, with upstream's rules: leader
 * election timings and lock, parallelism, profiles (required, names present and unique, the same
 * QueueSort everywhere, known plugins, removed plugins, plugin args), percentageOfNodesToScore in
 * [0, 100], backoff seconds, extenders (positive weight for prioritize, at most one binder).
 *
 * @param config the defaulted configuration
 * @param options the known plugin names and extra args validators
 * @returns every error found; empty when the configuration is valid
 */
export function validateConfiguration(
  config: KubeSchedulerConfiguration,
  options: ValidateOptions = {},
): FieldError[] {
  const errors: FieldError[] = [];
  if (config.apiVersion !== SCHEDULER_CONFIG_API_VERSION)
    errors.push(unsupported('apiVersion', config.apiVersion, [SCHEDULER_CONFIG_API_VERSION]));
  if (config.kind !== 'KubeSchedulerConfiguration')
    errors.push(unsupported('kind', config.kind, ['KubeSchedulerConfiguration']));

  const cc = config.clientConnection ?? {};
  if (cc.burst !== undefined && cc.burst < 0)
    errors.push(invalid('clientConnection.burst', cc.burst, 'must be non-negative'));
  if (cc.qps !== undefined && cc.qps < 0)
    errors.push(invalid('clientConnection.qps', cc.qps, 'must be non-negative'));

  const le = config.leaderElection ?? {};
  if (le.leaderElect) {
    const lease = durationMs('leaderElection.leaseDuration', le.leaseDuration, errors);
    const renew = durationMs('leaderElection.renewDeadline', le.renewDeadline, errors);
    const retry = durationMs('leaderElection.retryPeriod', le.retryPeriod, errors);
    if (lease !== undefined && lease <= 0)
      errors.push(invalid('leaderElection.leaseDuration', le.leaseDuration, 'must be greater than zero'));
    if (renew !== undefined && renew <= 0)
      errors.push(invalid('leaderElection.renewDeadline', le.renewDeadline, 'must be greater than zero'));
    if (retry !== undefined && retry <= 0)
      errors.push(invalid('leaderElection.retryPeriod', le.retryPeriod, 'must be greater than zero'));
    if (lease !== undefined && renew !== undefined && lease <= renew)
      errors.push(
        invalid(
          'leaderElection.leaseDuration',
          le.renewDeadline,
          'LeaseDuration must be greater than RenewDeadline',
        ),
      );
    if (!le.resourceLock)
      errors.push(invalid('leaderElection.resourceLock', le.resourceLock ?? '', 'resourceLock is required'));
    else if (le.resourceLock !== 'leases')
      errors.push(
        invalid('leaderElection.resourceLock', le.resourceLock, 'resourceLock value must be "leases"'),
      );
    if (!le.resourceNamespace)
      errors.push(
        invalid(
          'leaderElection.resourceNamespace',
          le.resourceNamespace ?? '',
          'resourceNamespace is required',
        ),
      );
    if (!le.resourceName)
      errors.push(invalid('leaderElection.resourceName', le.resourceName ?? '', 'resourceName is required'));
  }

  if (!Number.isInteger(config.parallelism) || (config.parallelism ?? 0) <= 0)
    errors.push(invalid('parallelism', config.parallelism, 'should be an integer value greater than zero'));

  const profiles = config.profiles ?? [];
  if (profiles.length === 0) errors.push(required('profiles'));
  const names = new Map<string, number>();
  profiles.forEach((profile, i) => {
    const path = `profiles[${i}]`;
    errors.push(...validateProfile(path, profile, options));
    const name = profile.schedulerName;
    if (name && names.has(name)) errors.push(duplicate(`${path}.schedulerName`, name));
    if (name) names.set(name, i);
  });
  if (profiles.length > 0) {
    const canon = profiles[0]!.plugins?.queueSort;
    const enabled = canon?.enabled ?? [];
    if (enabled.length > 1)
      errors.push(
        invalid(
          'profiles[0].plugins.queueSort.enabled',
          enabled.length,
          'only one queue sort plugin can be enabled',
        ),
      );
    const name = enabled[0]?.name;
    const args = JSON.stringify(profiles[0]!.pluginConfig?.find((pc) => pc.name === name)?.args ?? null);
    for (let i = 1; i < profiles.length; i++) {
      const cur = profiles[i]!.plugins?.queueSort;
      if (!sameQueueSort(canon, cur))
        errors.push(
          invalid(`profiles[${i}].plugins.queueSort`, cur ?? {}, 'must be the same for all profiles'),
        );
      for (const pc of profiles[i]!.pluginConfig ?? []) {
        if (name && pc.name === name && JSON.stringify(pc.args ?? null) !== args)
          errors.push(
            invalid(
              `profiles[${i}].pluginConfig.args`,
              pc.args,
              'queueSort must be the same for all profiles',
            ),
          );
      }
    }
  }

  errors.push(...validatePercentage('percentageOfNodesToScore', config.percentageOfNodesToScore));
  const initial = config.podInitialBackoffSeconds ?? 0;
  const max = config.podMaxBackoffSeconds ?? 0;
  if (initial <= 0) errors.push(invalid('podInitialBackoffSeconds', initial, 'must be greater than 0'));
  if (max < initial)
    errors.push(
      invalid('podMaxBackoffSeconds', max, 'must be greater than or equal to PodInitialBackoffSeconds'),
    );

  let binders = 0;
  const managed = new Set<string>();
  (config.extenders ?? []).forEach((e, i) => {
    const path = `extenders[${i}]`;
    if (!e.urlPrefix) errors.push(required(`${path}.urlPrefix`));
    if (e.prioritizeVerb && !((e.weight ?? 0) > 0))
      errors.push(invalid(`${path}.weight`, e.weight ?? 0, 'must have a positive weight applied to it'));
    if (e.bindVerb) binders++;
    durationMs(`${path}.httpTimeout`, e.httpTimeout, errors);
    (e.managedResources ?? []).forEach((r, j) => {
      const field = `${path}.managedResources[${j}].name`;
      const nameErrors = extendedResourceNameErrors(r.name);
      for (const msg of nameErrors) errors.push(invalid(field, r.name, msg));
      if (managed.has(r.name))
        errors.push(invalid(field, r.name, 'duplicate extender managed resource name'));
      managed.add(r.name);
    });
  });
  if (binders > 1)
    errors.push(
      invalid(
        'extenders',
        `found ${binders} extenders implementing bind`,
        'only one extender can implement bind',
      ),
    );
  return errors;
}
