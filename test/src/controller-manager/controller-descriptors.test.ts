// controllerDescriptors: every upstream controller name, the naming rules upstream's tests check, registration rules, user controllers.
import { NEVER } from 'rxjs';
import { describe, expect, it } from 'vitest';
import {
  controllerDescriptors,
  knownControllerNames,
} from '../../../src/controller-manager/controller-descriptors.ts';

describe('controllerDescriptors', () => {
  const map = controllerDescriptors();

  it('knows every name of the classic start-up list through its alias', () => {
    const { aliases } = knownControllerNames(map);
    for (const classic of [
      'endpoint',
      'replicationcontroller',
      'podgc',
      'resourcequota',
      'namespace',
      'serviceaccount',
      'garbagecollector',
      'daemonset',
      'job',
      'deployment',
      'replicaset',
      'horizontalpodautoscaling',
      'disruption',
      'statefulset',
      'cronjob',
      'csrsigning',
      'csrapproving',
      'ttl',
      'bootstrapsigner',
      'tokencleaner',
    ]) {
      expect(aliases.get(classic), classic).toMatch(/-controller$/);
    }
  });

  it('names follow upstream rules: lower case and dashes, ending in -controller; aliases never equal a name', () => {
    for (const [name, d] of map) {
      expect(name).toMatch(/^[a-z]+(-[a-z]+)*-controller$/);
      expect(d.name).toBe(name);
      for (const alias of d.aliases) expect(map.has(alias)).toBe(false);
    }
    expect(map.size).toBeGreaterThanOrEqual(50);
  });

  it('disables bootstrap-signer, token-cleaner and selinux-warning by default; cloud controllers need a cloud provider', () => {
    const off = [...map.values()].filter((d) => d.disabledByDefault).map((d) => d.name);
    expect(off.sort()).toEqual([
      'bootstrap-signer-controller',
      'selinux-warning-controller',
      'token-cleaner-controller',
    ]);
    const cloud = [...map.values()].filter((d) => d.cloudProvider).map((d) => d.name);
    expect(cloud.sort()).toEqual([
      'cloud-node-lifecycle-controller',
      'node-route-controller',
      'service-lb-controller',
    ]);
  });

  it('marks built controllers: the root CA publisher, the pod GC and the daemon set are built, the autoscaler not', () => {
    const built = knownControllerNames(map).built;
    expect(built?.has('root-ca-certificate-publisher-controller')).toBe(true);
    expect(built?.has('pod-garbage-collector-controller')).toBe(true);
    expect(built?.has('daemonset-controller')).toBe(true);
    expect(built?.has('horizontal-pod-autoscaler-controller')).toBe(false);
  });

  it('adds a user controller, or replaces the init of a known one', () => {
    const init = () => NEVER;
    const withMine = controllerDescriptors([
      { name: 'hello-controller', aliases: ['hello'], init },
      { name: 'horizontal-pod-autoscaler-controller', aliases: [], init },
    ]);
    expect(withMine.get('hello-controller')?.init).toBe(init);
    expect(withMine.get('horizontal-pod-autoscaler-controller')).toMatchObject({
      aliases: ['horizontalpodautoscaling'],
      init,
    });
    expect(knownControllerNames(withMine).aliases.get('hello')).toBe('hello-controller');
  });

  it.each([
    [[{ name: '', aliases: [], init: () => NEVER }], 'received controller without a name for a registration'],
    [
      [
        { name: 'a-controller', aliases: [], init: () => NEVER },
        { name: 'a-controller', aliases: [], init: () => NEVER },
      ],
      'controller name "a-controller" was registered twice',
    ],
    [[{ name: 'b-controller', aliases: [] }], 'controller "b-controller" does not have an init function'],
    [[{ name: 'c-controller', aliases: ['job'], init: () => NEVER }], 'has a duplicate alias "job"'],
    [
      [{ name: 'd-controller', aliases: ['job-controller'], init: () => NEVER }],
      'alias "job-controller" conflicts with a controller name',
    ],
  ])('refuses a bad registration: %#', (extra, message) => {
    expect(() => controllerDescriptors(extra)).toThrow(message);
  });
});
