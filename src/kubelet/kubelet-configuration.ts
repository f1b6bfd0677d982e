// loadKubeletConfiguration: the kubelet's --config file (KubeletConfiguration kubelet.config.k8s.io/v1beta1), defaulted and validated.
import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import type { Taint } from '../../operators/api/core-v1.ts';
import { InvalidConfigError } from '../../operators/errors.ts';
import { parseGoDuration } from './go-duration.ts';

/** The fields kube-rx reads, with the kubelet's defaults applied; durations in ms. */
export interface KubeletConfiguration {
  staticPodPath?: string;
  staticPodURL?: string;
  staticPodURLHeader: [string, string][];
  fileCheckFrequencyMs: number;
  httpCheckFrequencyMs: number;
  syncFrequencyMs: number;
  nodeStatusUpdateFrequencyMs: number;
  nodeStatusReportFrequencyMs: number;
  nodeLeaseDurationSeconds: number;
  maxPods: number;
  registerWithTaints: Taint[];
  healthzPort: number;
  port: number;
  address: string;
}

const API_VERSION = 'kubelet.config.k8s.io/v1beta1';
const KIND = 'KubeletConfiguration';
const KNOWN = new Set([
  'apiVersion',
  'kind',
  'staticPodPath',
  'staticPodURL',
  'staticPodURLHeader',
  'fileCheckFrequency',
  'httpCheckFrequency',
  'syncFrequency',
  'nodeStatusUpdateFrequency',
  'nodeStatusReportFrequency',
  'nodeLeaseDurationSeconds',
  'maxPods',
  'registerWithTaints',
  'healthzPort',
  'port',
  'address',
]);

/** The defaults of an empty KubeletConfiguration (v1beta1 defaults.go). */
export function defaultKubeletConfiguration(): KubeletConfiguration {
  return {
    staticPodURLHeader: [],
    fileCheckFrequencyMs: 20_000,
    httpCheckFrequencyMs: 20_000,
    syncFrequencyMs: 60_000,
    nodeStatusUpdateFrequencyMs: 10_000,
    nodeStatusReportFrequencyMs: 300_000,
    nodeLeaseDurationSeconds: 40,
    maxPods: 110,
    registerWithTaints: [],
    healthzPort: 10248,
    port: 10250,
    address: '0.0.0.0',
  };
}

const duration = (field: string, value: unknown): number => {
  if (typeof value !== 'string')
    throw new InvalidConfigError(
      field,
      `must be a duration string such as "20s", got ${JSON.stringify(value)}`,
    );
  const ms = parseGoDuration(field, value);
  if (ms < 0) throw new InvalidConfigError(field, 'must not be negative');
  return ms;
};

const port = (field: string, value: unknown): number => {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 65535) {
    throw new InvalidConfigError(field, `must be a port between 0 and 65535, got ${JSON.stringify(value)}`);
  }
  return value;
};

/**
 * Parses, defaults and validates a KubeletConfiguration document. Unknown fields are refused (the
 * kubelet's strict decoding), as are a wrong apiVersion/kind and bad values, each naming its field.
 *
 * @param text the YAML or JSON document
 * @param source the file name, for messages
 * @returns the configuration with defaults
 * @throws InvalidConfigError naming the field
 */
export function parseKubeletConfiguration(text: string, source = '--config'): KubeletConfiguration {
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (error) {
    throw new InvalidConfigError(
      source,
      `not YAML: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc))
    throw new InvalidConfigError(source, 'must be a KubeletConfiguration object');
  const raw = doc as Record<string, unknown>;
  if (raw.apiVersion !== API_VERSION)
    throw new InvalidConfigError(
      'apiVersion',
      `must be ${API_VERSION}, got ${JSON.stringify(raw.apiVersion)}`,
    );
  if (raw.kind !== KIND)
    throw new InvalidConfigError('kind', `must be ${KIND}, got ${JSON.stringify(raw.kind)}`);
  for (const key of Object.keys(raw)) {
    if (!KNOWN.has(key)) throw new InvalidConfigError(key, 'unknown field (strict decoding)');
  }
  const config = defaultKubeletConfiguration();
  if (raw.staticPodPath !== undefined) {
    if (typeof raw.staticPodPath !== 'string')
      throw new InvalidConfigError('staticPodPath', 'must be a string');
    config.staticPodPath = raw.staticPodPath;
  }
  if (raw.staticPodURL !== undefined) {
    if (typeof raw.staticPodURL !== 'string')
      throw new InvalidConfigError('staticPodURL', 'must be a string');
    config.staticPodURL = raw.staticPodURL;
  }
  if (raw.staticPodURLHeader !== undefined) {
    const headers = raw.staticPodURLHeader;
    if (!headers || typeof headers !== 'object' || Array.isArray(headers))
      throw new InvalidConfigError('staticPodURLHeader', 'must be a map of header name to a list of values');
    for (const [key, values] of Object.entries(headers)) {
      if (!Array.isArray(values) || values.some((v) => typeof v !== 'string')) {
        throw new InvalidConfigError(`staticPodURLHeader.${key}`, 'must be a list of strings');
      }
      for (const v of values) config.staticPodURLHeader.push([key, v as string]);
    }
  }
  if (raw.fileCheckFrequency !== undefined)
    config.fileCheckFrequencyMs = duration('fileCheckFrequency', raw.fileCheckFrequency);
  if (raw.httpCheckFrequency !== undefined)
    config.httpCheckFrequencyMs = duration('httpCheckFrequency', raw.httpCheckFrequency);
  if (raw.syncFrequency !== undefined) config.syncFrequencyMs = duration('syncFrequency', raw.syncFrequency);
  if (raw.nodeStatusUpdateFrequency !== undefined) {
    config.nodeStatusUpdateFrequencyMs = duration('nodeStatusUpdateFrequency', raw.nodeStatusUpdateFrequency);
    if (raw.nodeStatusReportFrequency === undefined)
      config.nodeStatusReportFrequencyMs = config.nodeStatusUpdateFrequencyMs;
  }
  if (raw.nodeStatusReportFrequency !== undefined)
    config.nodeStatusReportFrequencyMs = duration('nodeStatusReportFrequency', raw.nodeStatusReportFrequency);
  if (raw.nodeLeaseDurationSeconds !== undefined) {
    const v = raw.nodeLeaseDurationSeconds;
    if (typeof v !== 'number' || !Number.isInteger(v) || v <= 0)
      throw new InvalidConfigError(
        'nodeLeaseDurationSeconds',
        `must be a positive integer, got ${JSON.stringify(v)}`,
      );
    config.nodeLeaseDurationSeconds = v;
  }
  if (raw.maxPods !== undefined) {
    const v = raw.maxPods;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0)
      throw new InvalidConfigError('maxPods', `must not be a negative number, got ${JSON.stringify(v)}`);
    config.maxPods = v;
  }
  if (raw.registerWithTaints !== undefined) {
    if (!Array.isArray(raw.registerWithTaints))
      throw new InvalidConfigError('registerWithTaints', 'must be a list of taints');
    config.registerWithTaints = raw.registerWithTaints.map((t, i) =>
      validateTaint(`registerWithTaints[${i}]`, t),
    );
  }
  if (raw.healthzPort !== undefined) config.healthzPort = port('healthzPort', raw.healthzPort);
  if (raw.port !== undefined) config.port = port('port', raw.port);
  if (raw.address !== undefined) {
    if (typeof raw.address !== 'string')
      throw new InvalidConfigError('address', 'must be an IP address string');
    config.address = raw.address;
  }
  if (config.nodeStatusUpdateFrequencyMs <= 0)
    throw new InvalidConfigError('nodeStatusUpdateFrequency', 'must be greater than 0');
  return config;
}

const EFFECTS = new Set(['NoSchedule', 'PreferNoSchedule', 'NoExecute']);

function validateTaint(field: string, value: unknown): Taint {
  if (!value || typeof value !== 'object')
    throw new InvalidConfigError(field, 'must be a taint {key, value, effect}');
  const t = value as Record<string, unknown>;
  if (typeof t.key !== 'string' || t.key === '') throw new InvalidConfigError(`${field}.key`, 'is required');
  if (typeof t.effect !== 'string' || !EFFECTS.has(t.effect)) {
    throw new InvalidConfigError(
      `${field}.effect`,
      `must be one of NoSchedule, PreferNoSchedule, NoExecute, got ${JSON.stringify(t.effect)}`,
    );
  }
  return { key: t.key, ...(typeof t.value === 'string' ? { value: t.value } : {}), effect: t.effect };
}

/**
 * Parses `--register-with-taints`: `key=value:Effect` (value optional), comma separated.
 *
 * @throws InvalidConfigError naming `--register-with-taints`
 */
export function parseTaintsFlag(text: string): Taint[] {
  return text
    .split(',')
    .filter((s) => s.trim() !== '')
    .map((spec) => {
      const m = /^([^=:]+)(?:=([^:]*))?:(NoSchedule|PreferNoSchedule|NoExecute)$/.exec(spec.trim());
      if (!m)
        throw new InvalidConfigError(
          '--register-with-taints',
          `invalid taint spec: ${spec} (want key=value:Effect)`,
        );
      return { key: m[1] as string, ...(m[2] !== undefined ? { value: m[2] } : {}), effect: m[3] as string };
    });
}

/**
 * Parses `--node-labels`: `key=value` pairs, comma separated.
 *
 * @throws InvalidConfigError naming `--node-labels`
 */
export function parseNodeLabelsFlag(text: string): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const pair of text.split(',')) {
    if (pair.trim() === '') continue;
    const eq = pair.indexOf('=');
    if (eq <= 0)
      throw new InvalidConfigError('--node-labels', `invalid label ${JSON.stringify(pair)} (want key=value)`);
    labels[pair.slice(0, eq).trim()] = pair.slice(eq + 1).trim();
  }
  return labels;
}

/** Reads and parses the `--config` file. */
export async function loadKubeletConfiguration(path: string): Promise<KubeletConfiguration> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new InvalidConfigError(
      '--config',
      `cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return parseKubeletConfiguration(text, path);
}
