// The kube-rx command line: one program, a subcommand per component.
import { Command, CommanderError } from 'commander';
import { commands } from './commands.ts';

/** Builds the program; exported so tests can parse arguments without spawning a process. */
export function buildProgram(): Command {
  const program = new Command('kube-rx')
    .description('Kubernetes control-plane machinery as RxJS observables')
    .version('0.1.0')
    .showHelpAfterError();
  for (const make of commands) program.addCommand(make());
  return program;
}

/** Runs the CLI; exits non-zero with the failing input named on bad usage or configuration. */
export async function main(argv: string[]): Promise<void> {
  const program = buildProgram();
  program.exitOverride();
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      process.exitCode = error.exitCode;
      return;
    }
    process.stderr.write(`kube-rx: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}
