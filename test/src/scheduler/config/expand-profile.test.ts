// expandProfile: MultiPoint expansion, in the spirit of upstream's TestNewFrameworkMultiPointExpansion (framework_test.go).
import { describe, expect, it } from 'vitest';
import { expandProfile } from '../../../../src/scheduler/config/expand-profile.ts';
import type { ExtensionPoint, KubeSchedulerProfile } from '../../../../src/scheduler/config/types.ts';

const POINTS: Record<string, ExtensionPoint[]> = {
  Sort: ['queueSort'],
  Fit: ['preFilter', 'filter', 'score'],
  Taints: ['filter', 'preScore', 'score'],
  Binder: ['bind'],
  Gate: ['preEnqueue'],
  Permit: ['permit', 'reserve'],
};
const implementsOf = (name: string) => new Set(POINTS[name] ?? []);
const expand = (profile: KubeSchedulerProfile) =>
  expandProfile('profiles[0]', { schedulerName: 'p', ...profile }, implementsOf);
const at = (profile: KubeSchedulerProfile, point: ExtensionPoint) =>
  expand(profile).profile.plugins[point].map((p) =>
    p.weight !== undefined ? `${p.name}:${p.weight}` : p.name,
  );

const multi = (...names: (string | [string, number])[]) => ({
  multiPoint: { enabled: names.map((n) => (Array.isArray(n) ? { name: n[0], weight: n[1] } : { name: n })) },
});

describe('expandProfile', () => {
  it('puts each MultiPoint plugin at every point it implements, in MultiPoint order', () => {
    const p = { plugins: multi('Sort', 'Fit', 'Taints', 'Binder') };
    expect(at(p, 'queueSort')).toEqual(['Sort']);
    expect(at(p, 'filter')).toEqual(['Fit', 'Taints']);
    expect(at(p, 'preScore')).toEqual(['Taints']);
    expect(at(p, 'bind')).toEqual(['Binder']);
    expect(at(p, 'permit')).toEqual([]);
  });

  it.each([
    [
      'MultiPoint weights, 0 or unset meaning 1',
      { plugins: multi(['Fit', 4], ['Taints', 0]) },
      ['Fit:4', 'Taints:1'],
    ],
    [
      'a Score entry overrides the MultiPoint weight and goes first',
      {
        plugins: { ...multi(['Fit', 4], ['Taints', 3]), score: { enabled: [{ name: 'Taints', weight: 9 }] } },
      },
      ['Taints:9', 'Fit:4'],
    ],
    [
      'a plugin disabled at Score keeps its other points',
      { plugins: { ...multi('Fit', 'Taints'), score: { disabled: [{ name: 'Fit' }] } } },
      ['Taints:1'],
    ],
    [
      '`*` disabled at Score takes nothing from MultiPoint',
      { plugins: { ...multi('Fit', 'Taints'), score: { disabled: [{ name: '*' }] } } },
      [],
    ],
    [
      'order: overrides, then MultiPoint, then other specific plugins',
      {
        plugins: {
          ...multi('Fit'),
          score: {
            enabled: [
              { name: 'Taints', weight: 2 },
              { name: 'Fit', weight: 5 },
            ],
          },
        },
      },
      ['Fit:5', 'Taints:2'],
    ],
  ] as [string, KubeSchedulerProfile, string[]][])('score: %s', (_name, profile, expected) => {
    expect(at(profile, 'score')).toEqual(expected);
  });

  it('keeps args by plugin name and the profile percentage', () => {
    const { profile } = expand({
      percentageOfNodesToScore: 30,
      plugins: multi('Fit'),
      pluginConfig: [{ name: 'Fit', args: { a: 1 } }],
    });
    expect(profile.pluginArgs).toEqual({ Fit: { a: 1 } });
    expect(profile.percentageOfNodesToScore).toBe(30);
  });

  it.each([
    [
      'a plugin named twice at one point',
      { plugins: { filter: { enabled: [{ name: 'Fit' }, { name: 'Fit' }] } } },
      'profiles[0].plugins.filter.enabled[1]',
      'plugin "Fit" already registered as "filter"',
    ],
    [
      'a plugin named twice in MultiPoint',
      { plugins: multi('Fit', 'Fit') },
      'profiles[0].plugins.multiPoint.enabled[1]',
      'already registered',
    ],
    [
      'a plugin at a point it does not implement',
      { plugins: { bind: { enabled: [{ name: 'Fit' }] } } },
      'profiles[0].plugins.bind.enabled[0]',
      'plugin "Fit" does not extend bind plugin',
    ],
  ] as [string, KubeSchedulerProfile, string, string][])(
    'reports %s with its field',
    (_name, profile, field, detail) => {
      const { errors } = expand(profile);
      expect(errors).toContainEqual(
        expect.objectContaining({ field, detail: expect.stringContaining(detail) }),
      );
    },
  );
});
