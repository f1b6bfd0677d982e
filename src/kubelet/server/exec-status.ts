// The metav1 Status an exec session writes on channel 3: Success, or NonZeroExitCode with the code in an ExitCode cause.

/** The Status JSON kubectl decodes from the error channel (it exits with the ExitCode cause's number). */
export interface ExecStatus {
  metadata: Record<string, never>;
  status: 'Success' | 'Failure';
  message?: string;
  reason?: string;
  details?: { causes: { reason: string; message: string }[] };
}

/**
 * The outcome of a command as the kubelet reports it.
 * @param exitCode the command's exit code
 * @param command the command as run (for the message)
 */
export function execStatus(exitCode: number, command: readonly string[]): ExecStatus {
  if (exitCode === 0) return { metadata: {}, status: 'Success' };
  return {
    metadata: {},
    status: 'Failure',
    message: `command terminated with non-zero exit code: error executing command [${command.join(' ')}], exit code ${exitCode}`,
    reason: 'NonZeroExitCode',
    details: { causes: [{ reason: 'ExitCode', message: String(exitCode) }] },
  };
}

/** A failure that is not an exit code (e.g. the command could not start), as an InternalError Status. */
export function execErrorStatus(message: string): ExecStatus & { reason: string } {
  return { metadata: {}, status: 'Failure', message, reason: 'InternalError' };
}
