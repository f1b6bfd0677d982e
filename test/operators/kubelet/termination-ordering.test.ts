// terminationPrerequisites: sidecars stop after the app containers, in reverse spec order (termination_ordering_test cases).
import { describe, expect, it } from 'vitest';
import type { Container } from '../../../operators/api/core-v1.ts';
import { terminationPrerequisites } from '../../../operators/kubelet/termination-ordering.ts';
import { pod } from './builders.ts';

const sidecar = (name: string): Container => ({ name, image: 'x', restartPolicy: 'Always' });

describe('terminationPrerequisites', () => {
  it.each<{
    name: string;
    inits: (string | Container)[];
    apps: string[];
    running: string[];
    want: Record<string, string[]>;
  }>([
    {
      name: 'no sidecars: nobody waits',
      inits: ['init'],
      apps: ['a', 'b'],
      running: ['a', 'b'],
      want: { a: [], b: [] },
    },
    {
      name: 'one sidecar waits for every app container',
      inits: [sidecar('s1')],
      apps: ['a', 'b'],
      running: ['s1', 'a', 'b'],
      want: { a: [], b: [], s1: ['a', 'b'] },
    },
    {
      name: 'sidecars stop in reverse order, each after the apps',
      inits: [sidecar('s1'), 'init', sidecar('s2'), sidecar('s3')],
      apps: ['a'],
      running: ['s1', 's2', 's3', 'a'],
      want: { a: [], s3: ['a'], s2: ['a', 's3'], s1: ['a', 's2'] },
    },
    {
      name: 'stopped containers are not waited for',
      inits: [sidecar('s1'), sidecar('s2')],
      apps: ['a', 'b'],
      running: ['s1', 'b'],
      want: { b: [], s1: ['b'] },
    },
    {
      name: 'only sidecars left: they still go in reverse order',
      inits: [sidecar('s1'), sidecar('s2')],
      apps: ['a'],
      running: ['s1', 's2'],
      want: { s2: [], s1: ['s2'] },
    },
  ])('$name', ({ inits, apps, running, want }) => {
    const p = pod(apps, { inits });
    expect(Object.fromEntries(terminationPrerequisites(p, running))).toEqual(want);
  });
});
