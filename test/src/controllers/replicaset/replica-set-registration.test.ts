// The replicaset and replicationcontroller controllers are built and registered in the controller manager's name → init map.
import { describe, expect, it } from 'vitest';
import {
  controllerDescriptors,
  knownControllerNames,
} from '../../../../src/controller-manager/controller-descriptors.ts';

describe('replicaset controller registration', () => {
  it.each([
    { name: 'replicaset-controller', alias: 'replicaset' },
    { name: 'replicationcontroller-controller', alias: 'replicationcontroller' },
  ])('$name (alias $alias) has an init function', ({ name, alias }) => {
    const descriptors = controllerDescriptors();
    expect(descriptors.get(name)?.init).toBeTypeOf('function');
    const known = knownControllerNames(descriptors);
    expect(known.built?.has(name)).toBe(true);
    expect(known.aliases.get(alias)).toBe(name);
  });
});
