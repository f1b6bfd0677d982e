// Label and field selector parsing and matching, with cases from the Kubernetes labels and fields tests.
import { describe, expect, it } from 'vitest';
import { ApiStatusError } from '../../../src/apiserver/api-status.ts';
import {
  fieldSelector,
  labelSelector,
  parseLabelSelector,
  pinnedName,
} from '../../../src/apiserver/selectors.ts';

const withLabels = (labels: Record<string, string>) => ({ metadata: { name: 'x', labels } });

describe('labelSelector', () => {
  it.each([
    ['', {}, true],
    ['a=b', { a: 'b' }, true],
    ['a==b', { a: 'b' }, true],
    ['a=b', { a: 'c' }, false],
    ['a!=b', {}, true],
    ['a!=b', { a: 'b' }, false],
    ['a', { a: '' }, true],
    ['!a', { a: 'x' }, false],
    ['!a', {}, true],
    ['a in (x,y)', { a: 'y' }, true],
    ['a in (x,y)', {}, false],
    ['a notin (x,y)', {}, true],
    ['a notin (x,y)', { a: 'x' }, false],
    ['a=b,c=d', { a: 'b', c: 'd' }, true],
    ['a=b,c=d', { a: 'b' }, false],
    ['n>3', { n: '4' }, true],
    ['n<3', { n: '4' }, false],
    ['n>3', { n: 'x' }, false],
    ['example.com/key=v', { 'example.com/key': 'v' }, true],
    [' a = b , c in ( d ) ', { a: 'b', c: 'd' }, true],
  ])('%j on %j is %s', (input, labels, expected) => {
    expect(labelSelector(input).matches(withLabels(labels))).toBe(expected);
  });

  it.each(['a in (', 'a=b,,c=d', 'a=b c', '-a=b', `a=${'x'.repeat(64)}`, 'n>x', 'a b'])(
    'refuses %j with 400',
    (input) => {
      expect(() => parseLabelSelector(input)).toThrow(ApiStatusError);
      try {
        parseLabelSelector(input);
      } catch (error) {
        expect((error as ApiStatusError).statusCode).toBe(400);
      }
    },
  );
});

describe('fieldSelector', () => {
  const pod = {
    metadata: { name: 'p', namespace: 'ns' },
    spec: { nodeName: 'n1', hostNetwork: false },
    status: { phase: 'Running' },
  };
  const allowed = ['spec.nodeName', 'status.phase', 'spec.hostNetwork'];
  it.each([
    ['metadata.name=p', true],
    ['metadata.name==p', true],
    ['metadata.name!=p', false],
    ['metadata.namespace=ns,status.phase=Running', true],
    ['spec.nodeName=', false],
    ['spec.nodeName!=', true],
    ['spec.hostNetwork=false', true],
  ])('%s is %s', (input, expected) => {
    expect(fieldSelector(input, allowed).matches(pod)).toBe(expected);
  });

  it('refuses fields the resource does not index', () => {
    expect(() => fieldSelector('spec.containers=x', allowed)).toThrow(/field label not supported/);
  });

  it('finds the name a kubectl wait pins', () => {
    expect(pinnedName('metadata.name=web')).toBe('web');
    expect(pinnedName('metadata.name=web,status.phase=x')).toBeUndefined();
  });
});
