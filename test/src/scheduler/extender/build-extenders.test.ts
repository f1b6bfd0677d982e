// buildExtenders: ignorable extenders last, ignoredByScheduler resources handed to every profile's NodeResourcesFit args.
import { describe, expect, it } from 'vitest';
import { InvalidConfigError } from '../../../../operators/errors.ts';
import { setDefaults } from '../../../../src/scheduler/config/set-defaults.ts';
import type { KubeSchedulerConfiguration } from '../../../../src/scheduler/config/types.ts';
import { buildExtenders } from '../../../../src/scheduler/extender/build-extenders.ts';

const fitArgs = (config: KubeSchedulerConfiguration, i = 0) =>
  config.profiles![i]!.pluginConfig!.find((pc) => pc.name === 'NodeResourcesFit')!.args!;

describe('buildExtenders', () => {
  it('builds one extender per entry, the ignorable ones after the others', () => {
    const built = buildExtenders(
      setDefaults({
        extenders: [
          { urlPrefix: 'http://a', filterVerb: 'filter', ignorable: true },
          { urlPrefix: 'http://b', filterVerb: 'filter' },
          { urlPrefix: 'http://c', prioritizeVerb: 'prioritize', weight: 1, ignorable: true },
          { urlPrefix: 'http://d', bindVerb: 'bind' },
        ],
      }),
    );
    expect(built.extenders.map((e) => e.name())).toEqual(['http://b', 'http://d', 'http://a', 'http://c']);
    built.close();
  });

  it('leaves the configuration alone without ignored resources', () => {
    const config = setDefaults({
      extenders: [{ urlPrefix: 'http://a', managedResources: [{ name: 'x.io/gpu' }] }],
    });
    const built = buildExtenders(config);
    expect(built.config).toBe(config);
    expect(fitArgs(built.config).ignoredResources).toBeUndefined();
    built.close();
  });

  it("sets every profile's NodeResourcesFit ignoredResources to the resources ignored by the scheduler", () => {
    const built = buildExtenders(
      setDefaults({
        profiles: [
          { schedulerName: 'one' },
          {
            schedulerName: 'two',
            pluginConfig: [{ name: 'NodeResourcesFit', args: { ignoredResources: ['mine.io/own'] } }],
          },
        ],
        extenders: [
          {
            urlPrefix: 'http://a',
            managedResources: [
              { name: 'x.io/gpu', ignoredByScheduler: true },
              { name: 'x.io/fpga', ignoredByScheduler: false },
            ],
          },
          { urlPrefix: 'http://b', managedResources: [{ name: 'y.io/nic', ignoredByScheduler: true }] },
        ],
      }),
    );
    expect(fitArgs(built.config, 0).ignoredResources).toEqual(['x.io/gpu', 'y.io/nic']);
    expect(fitArgs(built.config, 1).ignoredResources).toEqual(['x.io/gpu', 'y.io/nic']);
    expect(fitArgs(built.config, 0).scoringStrategy).toBeDefined();
    built.close();
  });

  it("fails naming the profile when it has no NodeResourcesFit args (upstream's words)", () => {
    const config: KubeSchedulerConfiguration = {
      profiles: [{ schedulerName: 'bare', pluginConfig: [] }],
      extenders: [
        { urlPrefix: 'http://a', managedResources: [{ name: 'x.io/gpu', ignoredByScheduler: true }] },
      ],
    };
    let error: unknown;
    try {
      buildExtenders(config);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InvalidConfigError);
    expect((error as InvalidConfigError).field).toBe('profiles[0].pluginConfig');
    expect((error as Error).message).toContain("can't find NodeResourcesFitArgs in plugin config");
  });
});
