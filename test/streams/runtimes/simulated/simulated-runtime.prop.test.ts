// Simulated runtime against a naive model: for any run times, exit codes, stop times and grace, the same outcome.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../../src/testing/virtual-clock.ts';
import type { ContainerStatus } from '../../../../streams/runtimes/runtime.ts';
import { SIMULATED, simulatedRuntime } from '../../../../streams/runtimes/simulated/simulated-runtime.ts';
import { containerConfig, sandboxConfig } from '../runtime-fixtures.ts';

const spec = fc.record({
  /** undefined: runs until stopped */
  runSeconds: fc.option(fc.integer({ min: 0, max: 20 }), { nil: undefined }),
  exitCode: fc.integer({ min: 0, max: 255 }),
  termSeconds: fc.integer({ min: 0, max: 10 }),
  stop: fc.option(
    fc.record({ at: fc.integer({ min: 0, max: 25 }), timeout: fc.integer({ min: 0, max: 10 }) }),
    {
      nil: undefined,
    },
  ),
});
type Spec = typeof spec extends fc.Arbitrary<infer T> ? T : never;

/** What the container should show at the end: exit code and time, or still running. */
function model(s: Spec): { exitCode: number; at: number } | 'running' {
  const end = s.runSeconds === undefined ? Number.POSITIVE_INFINITY : s.runSeconds * 1000;
  const natural = Number.isFinite(end) ? { exitCode: s.exitCode, at: end } : 'running';
  if (!s.stop) return natural;
  const at = s.stop.at * 1000;
  if (at >= end) return natural; // already exited (a stop at the very moment of the exit comes after it)
  if (s.stop.timeout === 0) return { exitCode: 137, at };
  const term = s.termSeconds * 1000;
  if (term === 0) return { exitCode: 143, at };
  const stopped =
    term < s.stop.timeout * 1000
      ? { exitCode: 143, at: at + term }
      : { exitCode: 137, at: at + s.stop.timeout * 1000 };
  return end <= stopped.at ? natural : stopped;
}

describe('simulatedRuntime model', () => {
  it('ends every container as the model says, at the time it says', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(spec, { minLength: 1, maxLength: 12 }), async (specs) => {
        const clock = new VirtualClock();
        const runtime = simulatedRuntime({ scheduler: clock.scheduler, logs: 'none' });
        const ids: string[] = [];
        for (const s of specs) {
          const sandbox = sandboxConfig();
          const sandboxId = await runtime.runPodSandbox(sandbox);
          const annotations: Record<string, string> = {
            [SIMULATED.exitCode]: String(s.exitCode),
            [SIMULATED.termSeconds]: String(s.termSeconds),
            [SIMULATED.runSeconds]: s.runSeconds === undefined ? 'infinity' : String(s.runSeconds),
          };
          const id = await runtime.createContainer(
            sandboxId,
            containerConfig('c', ['app'], { annotations }),
            sandbox,
          );
          await runtime.startContainer(id);
          ids.push(id);
        }
        const stops = specs
          .map((s, i) => ({ i, stop: s.stop }))
          .filter((x) => x.stop !== undefined)
          .sort((a, b) => a.stop!.at - b.stop!.at);
        for (const { i, stop } of stops) {
          clock.advance(stop!.at * 1000 - clock.now());
          void runtime.stopContainer(ids[i]!, stop!.timeout);
        }
        clock.advance(60_000 - clock.now());
        const statuses = new Map<string, ContainerStatus>(
          (await runtime.listContainers()).map((c) => [c.id, c]),
        );
        specs.forEach((s, i) => {
          const status = statuses.get(ids[i]!)!;
          const expected = model(s);
          if (expected === 'running') expect(status.state).toBe('CONTAINER_RUNNING');
          else {
            expect([status.state, status.exitCode, status.finishedAt]).toEqual([
              'CONTAINER_EXITED',
              expected.exitCode,
              expected.at,
            ]);
            expect(status.reason).toBe(expected.exitCode === 0 ? 'Completed' : 'Error');
          }
        });
        await runtime.close();
        expect(clock.pending).toBe(0);
      }),
      { numRuns: 200 },
    );
  });
});
