// execStatus: the Status kubectl reads on channel 3 (Success, or NonZeroExitCode with an ExitCode cause).
import { describe, expect, it } from 'vitest';
import { execErrorStatus, execStatus } from '../../../../src/kubelet/server/exec-status.ts';

describe('execStatus', () => {
  it('exit 0 is Success with no details', () => {
    expect(execStatus(0, ['echo', 'hi'])).toEqual({ metadata: {}, status: 'Success' });
  });

  it.each([1, 3, 127, 137])(
    'exit %i is a NonZeroExitCode failure carrying the code as the ExitCode cause',
    (code) => {
      const status = execStatus(code, ['sh', '-c', `exit ${code}`]);
      expect(status).toMatchObject({ status: 'Failure', reason: 'NonZeroExitCode' });
      expect(status.details?.causes).toEqual([{ reason: 'ExitCode', message: String(code) }]);
      expect(status.message).toBe(
        `command terminated with non-zero exit code: error executing command [sh -c exit ${code}], exit code ${code}`,
      );
    },
  );

  it('a command that could not run is an InternalError failure without an exit code', () => {
    expect(execErrorStatus('no such file')).toEqual({
      metadata: {},
      status: 'Failure',
      message: 'no such file',
      reason: 'InternalError',
    });
  });
});
