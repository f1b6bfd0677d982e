// Process runtime property: whatever tree of processes a container grows (new sessions, ignored SIGTERM), stop leaves none.
import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { processRuntime } from '../../../../streams/runtimes/process/process-runtime.ts';
import { until } from '../../../helpers/until.ts';
import { alive, containerConfig, sandboxConfig } from '../runtime-fixtures.ts';

interface Node {
  ignoreTerm: boolean;
  newSession: boolean;
  children: Node[];
}

/** Trees of at most `depth` levels below the root (so at most 2^(depth+1) - 1 processes): an unbounded
 * recursive arbitrary once grew a 2,700-process tree that swamped the machine. */
const treeOfDepth = (depth: number): fc.Arbitrary<Node> =>
  fc.record({
    ignoreTerm: fc.boolean(),
    newSession: fc.boolean(),
    children: depth === 0 ? fc.constant([]) : fc.array(treeOfDepth(depth - 1), { maxLength: 2 }),
  });
const tree: fc.Arbitrary<Node> = treeOfDepth(3);

/**
 * Writes one script per node; each records its pid, starts its children, then waits on a 30 s sleep, so
 * that even a failing run leaves nothing behind for long.
 */
function scripts(root: Node, dir: string): { entry: string; count: number } {
  let n = 0;
  const write = (node: Node): string => {
    const file = join(dir, `n${n++}.sh`);
    const lines = [node.ignoreTerm ? "trap '' TERM" : '', `echo $$ >> ${join(dir, 'pids')}`];
    for (const child of node.children) {
      const script = write(child);
      lines.push(`${child.newSession ? 'setsid ' : ''}sh ${script} &`);
    }
    lines.push('sleep 30 & wait');
    writeFileSync(file, lines.join('\n'));
    return file;
  };
  const entry = write(root);
  return { entry, count: n };
}

describe('processRuntime property', () => {
  it('after stopContainer no process of the container is left, however it forked', async () => {
    await fc.assert(
      fc.asyncProperty(tree, fc.boolean(), async (root, parentDiesFirst) => {
        const dir = mkdtempSync(join(tmpdir(), 'kube-rx-tree-'));
        appendFileSync(join(dir, 'pids'), '');
        // The root dies on SIGTERM in half the cases, orphaning the rest before the SIGKILL comes.
        const { entry, count } = scripts({ ...root, ignoreTerm: !parentDiesFirst && root.ignoreTerm }, dir);
        const runtime = processRuntime({ namespaces: 'none' });
        const recorded = () =>
          readFileSync(join(dir, 'pids'), 'utf8').split('\n').filter(Boolean).map(Number);
        try {
          const sandbox = sandboxConfig();
          const sandboxId = await runtime.runPodSandbox(sandbox);
          const id = await runtime.createContainer(
            sandboxId,
            containerConfig('tree', ['sh', entry]),
            sandbox,
          );
          await runtime.startContainer(id);
          const pids = recorded;
          await until(() => pids().length === count, `${count} processes to start`, 10_000);
          await runtime.stopContainer(id, 0.3);
          await until(
            () => pids().every((pid) => !alive(pid)),
            'every process of the tree to be gone',
            10_000,
          );
          expect(pids().filter(alive)).toEqual([]);
        } finally {
          await runtime.close();
          // Whatever the outcome, nothing of this run may outlive it.
          for (const pid of recorded()) {
            try {
              process.kill(pid, 'SIGKILL');
            } catch {}
          }
        }
      }),
      { numRuns: 12 },
    );
  });
});
