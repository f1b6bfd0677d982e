// What a simulated container or exec does: its output, how long it runs and its exit code, read from its command line.

/** One step of a simulated run. */
export type SimulatedStep =
  | { kind: 'sleep'; ms: number }
  | { kind: 'echo'; stream: 'stdout' | 'stderr'; text: string }
  | { kind: 'forever' };

/**
 * A simulated run: steps in order, then the exit code. `forever` means it runs until stopped.
 * `recognised` is false when nothing in the command line was understood (the caller decides what that means).
 */
export interface SimulatedPlan {
  steps: SimulatedStep[];
  exitCode: number;
  recognised: boolean;
}

const SHELLS = new Set(['sh', 'bash', 'ash', 'dash', 'zsh']);

/**
 * Reads a command line the way the simulated runtime understands it:
 * - `sleep N` (seconds, fractions allowed) waits N seconds; `sleep infinity` never ends;
 * - `true` / `false` set the status to 0 / 1; `exit N` ends with N;
 * - `echo WORDS` writes a line to stdout (to stderr with a trailing `>&2`);
 * - `sh -c SCRIPT` (also bash, ash, dash, zsh) runs SCRIPT's commands, separated by `;`, `&&`, `||` or
 *   new lines, in order, with the rules above (no conditionals: `&&` and `||` act like `;`);
 * - any other command succeeds at once inside a script; as a whole command line it is not recognised.
 * The exit code is the one of `exit N`, else the status of the last command.
 *
 * @param argv command and args, as the container or exec gives them
 */
export function simulatedPlan(argv: string[]): SimulatedPlan {
  const [first, ...rest] = argv;
  if (first === undefined) return { steps: [], exitCode: 0, recognised: false };
  if (SHELLS.has(basename(first)) && rest[0] === '-c' && rest[1] !== undefined) {
    return script(rest[1]);
  }
  const plan: SimulatedPlan = { steps: [], exitCode: 0, recognised: true };
  const known = command([basename(first), ...rest], plan);
  return known ? plan : { steps: [], exitCode: 0, recognised: false };
}

function script(text: string): SimulatedPlan {
  const plan: SimulatedPlan = { steps: [], exitCode: 0, recognised: true };
  for (const part of text.split(/;|&&|\|\||\n/)) {
    const words = tokens(part);
    if (words.length === 0) continue;
    const [head, ...tail] = words;
    if (head === 'exit') {
      plan.exitCode = Number.parseInt(tail[0] ?? String(plan.exitCode), 10) & 0xff;
      return plan;
    }
    if (!command([basename(head!), ...tail], plan)) plan.exitCode = 0;
    if (plan.steps.at(-1)?.kind === 'forever') return plan;
  }
  return plan;
}

/** Applies one simple command to the plan; false when it is not one the simulation knows. */
function command(words: string[], plan: SimulatedPlan): boolean {
  const [head, ...args] = words;
  switch (head) {
    case 'sleep': {
      if (args[0] === 'infinity') {
        plan.steps.push({ kind: 'forever' });
        return true;
      }
      const seconds = Number(args[0]);
      if (!Number.isFinite(seconds) || seconds < 0) return false;
      plan.steps.push({ kind: 'sleep', ms: seconds * 1000 });
      plan.exitCode = 0;
      return true;
    }
    case 'true':
    case ':':
      plan.exitCode = 0;
      return true;
    case 'false':
      plan.exitCode = 1;
      return true;
    case 'exit':
      plan.exitCode = Number.parseInt(args[0] ?? '0', 10) & 0xff;
      return true;
    case 'echo': {
      const toStderr = args.at(-1) === '>&2' || args.at(-1) === '1>&2';
      const words = toStderr ? args.slice(0, -1) : args;
      plan.steps.push({ kind: 'echo', stream: toStderr ? 'stderr' : 'stdout', text: words.join(' ') });
      plan.exitCode = 0;
      return true;
    }
    default:
      return false;
  }
}

/** Splits on blanks, honouring '…' and "…" quotes (no escapes, no expansion). */
function tokens(text: string): string[] {
  const out: string[] = [];
  const re = /'([^']*)'|"([^"]*)"|(\S+)/g;
  for (const m of text.matchAll(re)) out.push(m[1] ?? m[2] ?? m[3]!);
  return out;
}

function basename(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}
