// Test helper: the kubectl binary (Debian's, when installed) and a runner bound to a kubeconfig.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { expect } from 'vitest';

/** The kubectl on this machine, or undefined (suites skip themselves then). */
export const KUBECTL = ['/usr/bin/kubectl', '/usr/local/bin/kubectl'].find((p) => existsSync(p));

/** What one kubectl run gave. */
export interface KubectlRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs kubectl with `--kubeconfig <kubeconfig()>` (read at each call, so it may be set in a hook);
 * `ok` also asserts an empty stderr and exit code 0, naming the command.
 */
export function kubectlRunner(kubeconfig: () => string) {
  const kubectl = (args: string[], input?: string): Promise<KubectlRun> =>
    new Promise((resolve) => {
      const child = execFile(
        KUBECTL!,
        ['--kubeconfig', kubeconfig(), ...args],
        { timeout: 20_000 },
        (error, stdout, stderr) =>
          resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
      if (input !== undefined) child.stdin!.end(input);
    });
  const ok = async (args: string[], input?: string): Promise<string> => {
    const r = await kubectl(args, input);
    expect(r.stderr, `kubectl ${args.join(' ')}`).toBe('');
    expect(r.code).toBe(0);
    return r.stdout;
  };
  return { kubectl, ok };
}
