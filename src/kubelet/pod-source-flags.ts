// The kubelet's pod-source flags, declared once for every command that runs the pod config (`pod-config`, `up`).
import { hostname } from 'node:os';
import type { Command } from 'commander';
import { InvalidConfigError } from '../../operators/errors.ts';
import { parseGoDuration } from './go-duration.ts';

/** The parsed flags, as commander hands them over. */
export interface PodSourceFlags {
  podManifestPath?: string;
  fileCheckFrequency: string;
  manifestUrl?: string;
  manifestUrlHeader: [string, string][];
  httpCheckFrequency: string;
  nodeName?: string;
  hostnameOverride?: string;
}

/** What the flags mean, in the units the pod config takes. */
export interface PodSourceOptions {
  /** `--node-name`, else `--hostname-override`, else the host name; trimmed and lower-cased as the kubelet does. */
  nodeName: string;
  podManifestPath: string | undefined;
  fileCheckFrequencyMs: number;
  manifestUrl: string | undefined;
  manifestUrlHeaders: [string, string][];
  httpCheckFrequencyMs: number;
}

/**
 * Parses one `--manifest-url-header` value: `key:value`, or several separated by commas, as the
 * kubelet's colon-separated multimap flag.
 * @param text the flag's value
 * @param previous the pairs of earlier occurrences
 * @returns every pair so far, in order
 * @throws InvalidConfigError naming `--manifest-url-header` for a part without a key
 */
export function parseManifestUrlHeader(text: string, previous: [string, string][] = []): [string, string][] {
  const out = [...previous];
  for (const part of text.split(',')) {
    if (part.trim() === '') continue;
    const colon = part.indexOf(':');
    const key = colon < 0 ? '' : part.slice(0, colon).trim();
    if (colon < 0 || key === '') {
      throw new InvalidConfigError('--manifest-url-header', `${JSON.stringify(part)} is not key:value`);
    }
    out.push([key, part.slice(colon + 1)]);
  }
  return out;
}

/**
 * Declares the static-pod file and URL sources' flags and the node name flags, with the kubelet's names
 * and defaults (both check frequencies 20s).
 * @param command the command to extend
 * @returns the same command
 */
export function addPodSourceOptions(command: Command): Command {
  return command
    .option('--pod-manifest-path <path>', 'static pod manifests: a file or a directory of them')
    .option('--file-check-frequency <duration>', 'full re-read period of the manifest path', '20s')
    .option('--manifest-url <url>', 'a URL serving a Pod or a PodList')
    .option(
      '--manifest-url-header <key:value>',
      'an HTTP header for --manifest-url (repeatable, or comma-separated)',
      (value: string, previous: [string, string][]) => parseManifestUrlHeader(value, previous),
      [],
    )
    .option('--http-check-frequency <duration>', 'poll period of the manifest URL', '20s')
    .option('--node-name <name>', 'the node name (default: --hostname-override, else the host name)')
    .option('--hostname-override <name>', 'the node name, as the kubelet spells it');
}

/**
 * Turns the flags declared by {@link addPodSourceOptions} into pod config options.
 * @param flags the parsed flags
 * @returns the node name, sources and periods
 * @throws InvalidConfigError naming the flag of a duration Go would not parse
 */
export function podSourceOptions(flags: PodSourceFlags): PodSourceOptions {
  return {
    nodeName: (flags.nodeName ?? flags.hostnameOverride ?? hostname()).trim().toLowerCase(),
    podManifestPath: flags.podManifestPath,
    fileCheckFrequencyMs: parseGoDuration('--file-check-frequency', flags.fileCheckFrequency),
    manifestUrl: flags.manifestUrl,
    manifestUrlHeaders: flags.manifestUrlHeader,
    httpCheckFrequencyMs: parseGoDuration('--http-check-frequency', flags.httpCheckFrequency),
  };
}
