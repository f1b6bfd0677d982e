// getPhase: cases ported from the kubelet's TestPodPhaseWithRestart*, TestPodPhaseWithInitContainers* and friends.
import { describe, expect, it } from 'vitest';
import type { ContainerStatus } from '../../../operators/api/core-v1.ts';
import { getPhase } from '../../../operators/kubelet/get-phase.ts';
import { failed, pod, running, succeeded, waiting, waitingWithLastTermination } from './builders.ts';

type Policy = 'Always' | 'OnFailure' | 'Never';
const two = (policy: Policy) => pod(['containerA', 'containerB'], { restartPolicy: policy });

describe('getPhase', () => {
  it.each<[string, Policy, ContainerStatus[], boolean, string]>([
    ['all running (Always)', 'Always', [running('containerA'), running('containerB')], false, 'Running'],
    ['all stopped (Always)', 'Always', [succeeded('containerA'), succeeded('containerB')], false, 'Running'],
    [
      'all stopped, terminal (Always)',
      'Always',
      [succeeded('containerA'), succeeded('containerB')],
      true,
      'Succeeded',
    ],
    [
      'one failed, terminal (Always)',
      'Always',
      [succeeded('containerA'), failed('containerB')],
      true,
      'Failed',
    ],
    [
      'mixed running and stopped (Always)',
      'Always',
      [running('containerA'), succeeded('containerB')],
      false,
      'Running',
    ],
    ['one missing (Always)', 'Always', [running('containerA')], false, 'Pending'],
    ['one waiting (Always)', 'Always', [running('containerA'), waiting('containerB')], false, 'Pending'],
    [
      'waiting after a restart (Always)',
      'Always',
      [running('containerA'), waitingWithLastTermination('containerB')],
      false,
      'Running',
    ],
    [
      'all succeeded (Never)',
      'Never',
      [succeeded('containerA'), succeeded('containerB')],
      false,
      'Succeeded',
    ],
    ['one failed (Never)', 'Never', [succeeded('containerA'), failed('containerB')], false, 'Failed'],
    ['one running (Never)', 'Never', [running('containerA'), succeeded('containerB')], false, 'Running'],
    [
      'all succeeded (OnFailure)',
      'OnFailure',
      [succeeded('containerA'), succeeded('containerB')],
      false,
      'Succeeded',
    ],
    [
      'one failed (OnFailure)',
      'OnFailure',
      [succeeded('containerA'), failed('containerB')],
      false,
      'Running',
    ],
    [
      'one failed, terminal (OnFailure)',
      'OnFailure',
      [succeeded('containerA'), failed('containerB')],
      true,
      'Failed',
    ],
    ['no statuses', 'Always', [], false, 'Pending'],
  ])('%s', (_name, policy, statuses, terminal, expected) => {
    expect(getPhase(two(policy), statuses, terminal)).toBe(expected);
  });

  it.each<[string, Policy, ContainerStatus[], string]>([
    ['init running', 'Always', [running('init'), waiting('containerA')], 'Pending'],
    ['init failed (Never)', 'Never', [failed('init'), waiting('containerA')], 'Failed'],
    ['init failed (Always) restarts', 'Always', [failed('init'), waiting('containerA')], 'Pending'],
    [
      'init failed then waiting (Never)',
      'Never',
      [waitingWithLastTermination('init', 1), waiting('containerA')],
      'Failed',
    ],
    ['init done, app running', 'Always', [succeeded('init'), running('containerA')], 'Running'],
    ['init done, app waiting', 'Always', [succeeded('init'), waiting('containerA')], 'Pending'],
    ['init missing', 'Always', [waiting('containerA')], 'Pending'],
    ['init waiting again while app ran', 'Always', [waiting('init'), running('containerA')], 'Running'],
  ])('with an init container: %s', (_name, policy, statuses, expected) => {
    const p = pod(['containerA'], { inits: ['init'], restartPolicy: policy });
    expect(getPhase(p, statuses, false)).toBe(expected);
  });

  it('a static pod is not made terminal by podIsTerminal', () => {
    const p = two('Always');
    p.metadata.annotations = { 'kubernetes.io/config.source': 'file' };
    expect(getPhase(p, [succeeded('containerA'), succeeded('containerB')], true)).toBe('Running');
  });
});

describe('getPhase with sidecars (TestPodPhaseWith*RestartableInitContainers, TestPodPhaseWithRestartAlwaysAndPodHasRun)', () => {
  const started = (name: string): ContainerStatus => ({ ...running(name), started: true });
  const sidecarPod = (policy: Policy) =>
    pod(['containerA', 'containerB'], {
      restartPolicy: policy,
      inits: [{ name: 'containerX', image: 'busybox', restartPolicy: 'Always' }],
    });
  it.each<[string, Policy, ContainerStatus[], boolean, string]>([
    ['empty, waiting', 'Always', [], false, 'Pending'],
    ['sidecar running, not started', 'Always', [running('containerX')], false, 'Pending'],
    ['sidecar stopped', 'Always', [succeeded('containerX')], false, 'Pending'],
    ['sidecar waiting after exit 0', 'Always', [waitingWithLastTermination('containerX')], false, 'Pending'],
    [
      'sidecar waiting after a failure',
      'Always',
      [waitingWithLastTermination('containerX', -1)],
      false,
      'Pending',
    ],
    ['sidecar waiting, never ran', 'Always', [waiting('containerX')], false, 'Pending'],
    [
      'sidecar started, 1/2 app running',
      'Always',
      [started('containerX'), running('containerA')],
      false,
      'Pending',
    ],
    [
      'sidecar started, apps running',
      'Always',
      [started('containerX'), running('containerA'), running('containerB')],
      false,
      'Running',
    ],
    [
      'sidecar running, apps running',
      'Always',
      [running('containerX'), running('containerA'), running('containerB')],
      false,
      'Running',
    ],
    [
      'sidecar stopped, apps running',
      'Always',
      [succeeded('containerX'), running('containerA'), running('containerB')],
      false,
      'Running',
    ],
    [
      'sidecar in crash-loop backoff, apps running',
      'Always',
      [waitingWithLastTermination('containerX'), running('containerA'), running('containerB')],
      false,
      'Running',
    ],
    [
      'apps succeeded, sidecar failed, terminal',
      'Always',
      [failed('containerX'), succeeded('containerA'), succeeded('containerB')],
      true,
      'Succeeded',
    ],
    [
      'apps succeeded, sidecar succeeded, terminal',
      'Always',
      [succeeded('containerX'), succeeded('containerA'), succeeded('containerB')],
      true,
      'Succeeded',
    ],
    ['Never: sidecar running', 'Never', [running('containerX')], false, 'Pending'],
    [
      'Never: sidecar started, one app running',
      'Never',
      [started('containerX'), running('containerA')],
      false,
      'Pending',
    ],
    [
      'Never: sidecar started, apps succeeded',
      'Never',
      [started('containerX'), succeeded('containerA'), succeeded('containerB')],
      false,
      'Running',
    ],
    [
      'Never: sidecar running, apps succeeded',
      'Never',
      [running('containerX'), succeeded('containerA'), succeeded('containerB')],
      false,
      'Running',
    ],
    [
      'Never: all succeeded',
      'Never',
      [succeeded('containerX'), succeeded('containerA'), succeeded('containerB')],
      false,
      'Succeeded',
    ],
    [
      'Never: sidecar failed, apps succeeded',
      'Never',
      [failed('containerX'), succeeded('containerA'), succeeded('containerB')],
      false,
      'Succeeded',
    ],
  ])('%s (%s)', (_name, policy, statuses, terminal, phase) => {
    expect(getPhase(sidecarPod(policy), statuses, terminal)).toBe(phase);
  });

  const hasRun = pod(['containerA'], {
    restartPolicy: 'Always',
    inits: ['containerX', { name: 'containerY', image: 'busybox', restartPolicy: 'Always' }],
  });
  it.each<[string, ContainerStatus[], string]>([
    [
      'regular init, sidecar and app all running',
      [running('containerX'), running('containerY'), running('containerA')],
      'Pending',
    ],
    [
      'app stopped, regular init and sidecar running',
      [running('containerX'), running('containerY'), succeeded('containerA')],
      'Pending',
    ],
    [
      'regular init done, sidecar running, app stopped',
      [succeeded('containerX'), running('containerY'), succeeded('containerA')],
      'Running',
    ],
    [
      'regular init done, sidecar and app running',
      [succeeded('containerX'), running('containerY'), running('containerA')],
      'Running',
    ],
  ])('pod has run: %s', (_name, statuses, phase) => {
    expect(getPhase(hasRun, statuses, false)).toBe(phase);
  });
});
