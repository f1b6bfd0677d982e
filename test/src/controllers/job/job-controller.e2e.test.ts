// The job controller end to end: the embedded API server, kube-rx scheduler, simulated kubelets, kube-rx controller-manager --controllers job and kubectl — a Job completes, an Indexed job reports its indexes, a failing job stops at its backoff limit.
import { describe, expect, it } from 'vitest';
import { useControlPlane } from '../../../helpers/control-plane.ts';
import { KUBECTL } from '../../scheduler/scheduler-process.ts';
import { waitFor } from '../../scheduler/wait-for.ts';

const job = (name: string, spec: string, annotations: string) => `apiVersion: batch/v1
kind: Job
metadata: {name: ${name}, namespace: default}
spec:
${spec}
  template:
    metadata:
      annotations: {${annotations}}
    spec:
      restartPolicy: Never
      terminationGracePeriodSeconds: 0
      containers: [{name: work, image: busybox, command: [sh, -c, "exit 0"]}]
`;

describe.skipIf(!KUBECTL)('job controller end to end', { timeout: 90_000 }, () => {
  // the job controller as kube-rx controller-manager --controllers job runs it
  const plane = useControlPlane({ controllerManager: ['--controllers', 'job'] });
  const ok = async (args: string[], input?: string) => {
    const r = await plane.kubectl(args, input);
    expect(r.stderr, `kubectl ${args.join(' ')}`).toBe('');
    return r.stdout;
  };

  it('runs a Job to completion and `kubectl wait --for=condition=complete` returns', async () => {
    await ok(
      ['create', '-f', '-'],
      job('pi', '  completions: 3\n  parallelism: 2', '"kube-rx.io/simulated-run-seconds": "1"'),
    );
    const waited = await plane.kubectl(['wait', '--for=condition=complete', 'job/pi', '--timeout=60s']);
    expect(waited.stdout).toContain('job.batch/pi condition met');
    expect(waited.code).toBe(0);
    const status = JSON.parse(await ok(['get', 'job', 'pi', '-o', 'jsonpath={.status}']));
    expect(status).toMatchObject({ succeeded: 3, ready: 0, active: 0 });
    expect(status.completionTime).toBeDefined();
    expect(status.conditions.map((c: { type: string }) => c.type)).toEqual([
      'SuccessCriteriaMet',
      'Complete',
    ]);
    // every pod was counted and released: no tracking finalizer is left
    const finalizers = await ok([
      'get',
      'pods',
      '-l',
      'batch.kubernetes.io/job-name=pi',
      '-o',
      'jsonpath={.items[*].metadata.finalizers}',
    ]);
    expect(finalizers).not.toContain('batch.kubernetes.io/job-tracking');
    expect(finalizers.split(' ')).toHaveLength(3);
    const reasons = await ok([
      'get',
      'events',
      '--field-selector',
      'involvedObject.name=pi',
      '-o',
      'jsonpath={.items[*].reason}',
    ]);
    expect(reasons.split(' ')).toEqual(expect.arrayContaining(['SuccessfulCreate', 'Completed']));
  });

  it('reports completedIndexes for an Indexed job, each pod carrying its index', async () => {
    await ok(
      ['create', '-f', '-'],
      job(
        'indexed',
        '  completions: 3\n  parallelism: 3\n  completionMode: Indexed',
        '"kube-rx.io/simulated-run-seconds": "1"',
      ),
    );
    await waitFor(async () => {
      expect(await ok(['get', 'job', 'indexed', '-o', 'jsonpath={.status.completedIndexes}'])).toBe('0-2');
    }, 60_000);
    const hostnames = await ok([
      'get',
      'pods',
      '-l',
      'batch.kubernetes.io/job-name=indexed',
      '-o',
      'jsonpath={.items[*].spec.hostname}',
    ]);
    expect(hostnames.split(' ').sort()).toEqual(['indexed-0', 'indexed-1', 'indexed-2']);
    await waitFor(async () => {
      expect(
        await ok([
          'get',
          'job',
          'indexed',
          '-o',
          'jsonpath={.status.conditions[?(@.type=="Complete")].status}',
        ]),
      ).toBe('True');
    }, 30_000);
  });

  it('stops a failing job at its backoff limit with BackoffLimitExceeded', async () => {
    await ok(
      ['create', '-f', '-'],
      job(
        'fails',
        '  completions: 2\n  parallelism: 2\n  backoffLimit: 1',
        '"kube-rx.io/simulated-exit-code": "1"',
      ),
    );
    const waited = await plane.kubectl(['wait', '--for=condition=failed', 'job/fails', '--timeout=60s']);
    expect(waited.code).toBe(0);
    expect(
      await ok(['get', 'job', 'fails', '-o', 'jsonpath={.status.conditions[?(@.type=="Failed")].reason}']),
    ).toBe('BackoffLimitExceeded');
    expect(Number(await ok(['get', 'job', 'fails', '-o', 'jsonpath={.status.failed}']))).toBe(2);
  });
});
