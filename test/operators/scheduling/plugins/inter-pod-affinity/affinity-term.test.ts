// AffinityTerm parsing and matching: which namespaces a term covers and when it selects a pod.
import { describe, expect, it } from 'vitest';
import type { PodAffinityTerm } from '../../../../../operators/api/core-v1.ts';
import {
  affinityTermOf,
  podAffinityTerms,
  podMatchesAllTerms,
  termMatches,
} from '../../../../../operators/scheduling/plugins/inter-pod-affinity/affinity-term.ts';
import { makePod } from '../default-preemption/cluster.ts';

const owner = makePod('owner', { ns: 'home' });
const target = (ns: string, labels: Record<string, string> = { app: 'web' }) => makePod('t', { ns, labels });

describe('termMatches', () => {
  it.each<{
    name: string;
    term: PodAffinityTerm;
    ns: string;
    nsLabels?: Record<string, string>;
    want: boolean;
  }>([
    {
      name: 'no namespaces and no namespaceSelector: the owner’s namespace only (same)',
      term: { labelSelector: { matchLabels: { app: 'web' } }, topologyKey: 'zone' },
      ns: 'home',
      want: true,
    },
    {
      name: 'no namespaces and no namespaceSelector: the owner’s namespace only (other)',
      term: { labelSelector: { matchLabels: { app: 'web' } }, topologyKey: 'zone' },
      ns: 'away',
      want: false,
    },
    {
      name: 'listed namespaces replace the owner’s',
      term: { labelSelector: { matchLabels: { app: 'web' } }, namespaces: ['away'], topologyKey: 'zone' },
      ns: 'away',
      want: true,
    },
    {
      name: 'an empty namespaceSelector covers every namespace',
      term: { labelSelector: { matchLabels: { app: 'web' } }, namespaceSelector: {}, topologyKey: 'zone' },
      ns: 'anywhere',
      want: true,
    },
    {
      name: 'a namespaceSelector matches by the namespace’s labels',
      term: {
        labelSelector: { matchLabels: { app: 'web' } },
        namespaceSelector: { matchLabels: { team: 'a' } },
        topologyKey: 'zone',
      },
      ns: 'a1',
      nsLabels: { team: 'a' },
      want: true,
    },
    {
      name: 'namespaces and namespaceSelector are ORed',
      term: {
        labelSelector: { matchLabels: { app: 'web' } },
        namespaces: ['listed'],
        namespaceSelector: { matchLabels: { team: 'a' } },
        topologyKey: 'zone',
      },
      ns: 'listed',
      nsLabels: { team: 'b' },
      want: true,
    },
    {
      name: 'a missing labelSelector selects nothing',
      term: { topologyKey: 'zone' },
      ns: 'home',
      want: false,
    },
    {
      name: 'an empty labelSelector selects every pod of the namespaces',
      term: { labelSelector: {}, topologyKey: 'zone' },
      ns: 'home',
      want: true,
    },
  ])('$name', ({ term, ns, nsLabels, want }) => {
    expect(termMatches(affinityTermOf(owner, term), target(ns), nsLabels)).toBe(want);
  });

  it('podMatchesAllTerms is false for no terms and needs every term', () => {
    const a = affinityTermOf(owner, { labelSelector: { matchLabels: { app: 'web' } }, topologyKey: 'zone' });
    const b = affinityTermOf(owner, {
      labelSelector: { matchLabels: { tier: 'front' } },
      topologyKey: 'zone',
    });
    expect(podMatchesAllTerms([], target('home'), undefined)).toBe(false);
    expect(podMatchesAllTerms([a, b], target('home'), undefined)).toBe(false);
    expect(podMatchesAllTerms([a, b], target('home', { app: 'web', tier: 'front' }), undefined)).toBe(true);
  });

  it('podAffinityTerms parses once per Pod object and throws InvalidInputError for a bad operator', () => {
    const pod = makePod('p', {
      affinity: {
        podAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: [
            { labelSelector: { matchLabels: { a: 'b' } }, topologyKey: 'zone' },
          ],
          preferredDuringSchedulingIgnoredDuringExecution: [
            {
              weight: 7,
              podAffinityTerm: { labelSelector: { matchLabels: { a: 'b' } }, topologyKey: 'zone' },
            },
          ],
        },
      },
    });
    const first = podAffinityTerms(pod);
    expect(podAffinityTerms(pod)).toBe(first);
    expect(first.requiredAffinity).toHaveLength(1);
    expect(first.preferredAffinity[0]?.weight).toBe(7);
    const bad = makePod('bad', {
      affinity: {
        podAntiAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: [
            { labelSelector: { matchExpressions: [{ key: 'a', operator: 'Near' }] }, topologyKey: 'zone' },
          ],
        },
      },
    });
    expect(() => podAffinityTerms(bad)).toThrow(/matchExpressions\[0\]/);
  });
});
