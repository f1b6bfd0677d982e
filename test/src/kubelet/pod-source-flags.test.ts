// The kubelet's pod-source flags: one declaration for pod-config and up, and how they turn into options.
import { hostname } from 'node:os';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { InvalidConfigError } from '../../../operators/errors.ts';
import { podConfigCommand } from '../../../src/kubelet/pod-config-command.ts';
import {
  addPodSourceOptions,
  type PodSourceFlags,
  podSourceOptions,
} from '../../../src/kubelet/pod-source-flags.ts';
import { upCommand } from '../../../src/node-agent/up-command.ts';

const FLAGS = [
  '--pod-manifest-path',
  '--file-check-frequency',
  '--manifest-url',
  '--manifest-url-header',
  '--http-check-frequency',
  '--node-name',
  '--hostname-override',
];

function parse(args: string[]): PodSourceFlags {
  const command = addPodSourceOptions(new Command('t')).exitOverride();
  command.parse(args, { from: 'user' });
  return command.opts<PodSourceFlags>();
}

describe('pod-source flags', () => {
  it.each([
    ['pod-config', podConfigCommand()],
    ['up', upCommand()],
  ])('%s declares every one of them', (_name, command) => {
    const declared = command.options.map((o) => o.long);
    for (const flag of FLAGS) expect(declared).toContain(flag);
  });

  it('defaults both check frequencies to the kubelet’s 20s and keeps the sources unset', () => {
    const options = podSourceOptions(parse([]));
    expect(options.fileCheckFrequencyMs).toBe(20_000);
    expect(options.httpCheckFrequencyMs).toBe(20_000);
    expect(options.podManifestPath).toBeUndefined();
    expect(options.manifestUrl).toBeUndefined();
    expect(options.manifestUrlHeaders).toEqual([]);
  });

  it.each([
    [['--node-name', ' Node-A ', '--hostname-override', 'other'], 'node-a'],
    [['--hostname-override', 'Host-B'], 'host-b'],
    [[], hostname().trim().toLowerCase()],
  ])(
    'node name from %j is %s (node-name, else hostname-override, else the host; trimmed, lower case)',
    (args, name) => {
      expect(podSourceOptions(parse(args)).nodeName).toBe(name);
    },
  );

  it('passes paths, URL and headers through and converts Go durations to ms', () => {
    const options = podSourceOptions(
      parse([
        '--pod-manifest-path',
        '/etc/kubernetes/manifests',
        '--file-check-frequency',
        '1m30s',
        '--manifest-url',
        'http://example.test/pods',
        '--manifest-url-header',
        'a:1,b:2',
        '--manifest-url-header',
        'c:3',
        '--http-check-frequency',
        '500ms',
      ]),
    );
    expect(options).toMatchObject({
      podManifestPath: '/etc/kubernetes/manifests',
      fileCheckFrequencyMs: 90_000,
      manifestUrl: 'http://example.test/pods',
      manifestUrlHeaders: [
        ['a', '1'],
        ['b', '2'],
        ['c', '3'],
      ],
      httpCheckFrequencyMs: 500,
    });
  });

  it('names the flag of a duration Go would refuse', () => {
    expect(() => podSourceOptions(parse(['--http-check-frequency', '20']))).toThrow(InvalidConfigError);
    expect(() => podSourceOptions(parse(['--http-check-frequency', '20']))).toThrow(/--http-check-frequency/);
  });
});
