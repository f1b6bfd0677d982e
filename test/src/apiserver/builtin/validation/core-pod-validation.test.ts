// Pods as a whole: the spec's rules, and what only a create refuses (ephemeral containers come later, through their subresource).
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../../operators/types.ts';
import { validatePod } from '../../../../../src/apiserver/builtin/validation/core-pod-validation.ts';
import { causeLines } from './cause-lines.ts';

const pod = (spec: object) =>
  ({ metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'i' }], ...spec } }) as KubeObject;

describe('validatePod', () => {
  it('refuses ephemeral containers on create, not on update', () => {
    const debug = pod({ ephemeralContainers: [{ name: 'debugger', image: 'busybox' }] });
    expect(causeLines(validatePod(debug))).toEqual([
      'spec.ephemeralContainers: Forbidden: cannot be set on create',
    ]);
    expect(validatePod(debug, pod({}))).toEqual([]);
  });

  it('reports the spec’s causes with `spec` paths', () => {
    expect(causeLines(validatePod(pod({ activeDeadlineSeconds: -5 })))).toEqual([
      'spec.activeDeadlineSeconds: Invalid value: -5: must be between 1 and 2147483647, inclusive',
    ]);
  });
});
