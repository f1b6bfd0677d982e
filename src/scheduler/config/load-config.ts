// Reads a KubeSchedulerConfiguration file (`--config`): YAML, strict fields, v1 defaults, validation naming the field.
import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { InvalidConfigError } from '../../../operators/errors.ts';
import { type FieldError, formatFieldError, invalid } from './field-error.ts';
import { setDefaults } from './set-defaults.ts';
import { EXTENSION_POINTS, type KubeSchedulerConfiguration } from './types.ts';
import { type ValidateOptions, validateConfiguration } from './validate-configuration.ts';

const TOP_FIELDS = new Set([
  'apiVersion',
  'kind',
  'parallelism',
  'leaderElection',
  'clientConnection',
  'healthzBindAddress',
  'metricsBindAddress',
  'enableProfiling',
  'enableContentionProfiling',
  'percentageOfNodesToScore',
  'podInitialBackoffSeconds',
  'podMaxBackoffSeconds',
  'profiles',
  'extenders',
  'delayCacheUntilActive',
]);
const PROFILE_FIELDS = new Set(['schedulerName', 'percentageOfNodesToScore', 'plugins', 'pluginConfig']);
const PLUGIN_POINTS = new Set<string>(['multiPoint', ...EXTENSION_POINTS]);
const EXTENDER_FIELDS = new Set([
  'urlPrefix',
  'filterVerb',
  'preemptVerb',
  'prioritizeVerb',
  'weight',
  'bindVerb',
  'enableHTTPS',
  'tlsConfig',
  'httpTimeout',
  'nodeCacheCapable',
  'managedResources',
  'ignorable',
]);
const EXTENDER_TLS_FIELDS = new Set([
  'insecure',
  'serverName',
  'certFile',
  'keyFile',
  'caFile',
  'certData',
  'keyData',
  'caData',
]);
const MANAGED_RESOURCE_FIELDS = new Set(['name', 'ignoredByScheduler']);

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** Unknown fields, as strict decoding reports them (`unknown field "profiles[0].foo"`). */
function unknownFields(doc: Record<string, unknown>): FieldError[] {
  const errors: FieldError[] = [];
  const check = (obj: unknown, known: Set<string>, path: string) => {
    if (!isObject(obj)) return;
    for (const key of Object.keys(obj)) {
      if (!known.has(key)) errors.push(invalid(path ? `${path}.${key}` : key, key, 'unknown field'));
    }
  };
  check(doc, TOP_FIELDS, '');
  if (doc.profiles !== undefined && !Array.isArray(doc.profiles))
    errors.push(invalid('profiles', doc.profiles, 'must be a list'));
  if (Array.isArray(doc.profiles)) {
    doc.profiles.forEach((p, i) => {
      check(p, PROFILE_FIELDS, `profiles[${i}]`);
      if (isObject(p)) check(p.plugins, PLUGIN_POINTS, `profiles[${i}].plugins`);
    });
  }
  if (doc.extenders !== undefined && !Array.isArray(doc.extenders))
    errors.push(invalid('extenders', doc.extenders, 'must be a list'));
  if (Array.isArray(doc.extenders)) {
    doc.extenders.forEach((e, i) => {
      const path = `extenders[${i}]`;
      check(e, EXTENDER_FIELDS, path);
      if (!isObject(e)) return;
      check(e.tlsConfig, EXTENDER_TLS_FIELDS, `${path}.tlsConfig`);
      if (Array.isArray(e.managedResources)) {
        e.managedResources.forEach((r, j) => {
          check(r, MANAGED_RESOURCE_FIELDS, `${path}.managedResources[${j}]`);
        });
      }
    });
  }
  return errors;
}

/** Raises the errors as one InvalidConfigError naming the first field (and listing every error). */
export function throwFieldErrors(source: string, errors: readonly FieldError[]): never {
  const first = errors[0]!;
  const text = errors.map(formatFieldError).join(', ');
  throw new InvalidConfigError(first.field, `${text.slice(first.field.length + 2)} (in ${source})`);
}

/**
 * Parses, defaults and validates a configuration from YAML text.
 *
 * @example
 * const config = parseSchedulerConfig('apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n');
 * config.profiles[0].schedulerName; // 'default-scheduler'
 * @param text the YAML (or JSON) document
 * @param source how to name the input in errors (the file path)
 * @param options the known plugin names and extra args validators
 * @returns the defaulted configuration
 * @throws InvalidConfigError naming the first bad field path (e.g. `profiles[1].schedulerName`)
 */
export function parseSchedulerConfig(
  text: string,
  source = 'config',
  options: ValidateOptions = {},
): KubeSchedulerConfiguration {
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (error) {
    throw new InvalidConfigError(
      source,
      `not YAML: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (doc === null || doc === undefined) doc = {};
  if (!isObject(doc)) throw new InvalidConfigError(source, 'a KubeSchedulerConfiguration must be a mapping');
  const shape = unknownFields(doc);
  if (shape.length) throwFieldErrors(source, shape);
  const known = options.knownPlugins;
  const config = setDefaults(
    doc as KubeSchedulerConfiguration,
    known ? { available: (n) => known.has(n) } : {},
  );
  const errors = validateConfiguration(config, options);
  if (errors.length) throwFieldErrors(source, errors);
  return config;
}

/** {@link parseSchedulerConfig} of a file. @throws InvalidConfigError (`--config`) when it cannot be read */
export async function loadSchedulerConfig(
  path: string,
  options: ValidateOptions = {},
): Promise<KubeSchedulerConfiguration> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new InvalidConfigError('--config', `cannot read ${path}: ${(error as Error).message}`);
  }
  return parseSchedulerConfig(text, path, options);
}
