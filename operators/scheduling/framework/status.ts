// Status: a plugin's verdict as a value (Success, Error, Unschedulable, ...), as kube-scheduler's framework.Status.
/**
 * Status codes, with kube-scheduler's names.
 * - Success: go on (an `undefined` status means Success too).
 * - Error: an unexpected failure; the pod goes to the error backoff.
 * - Unschedulable: rejected here; preemption may help.
 * - UnschedulableAndUnresolvable: rejected; preemption cannot help (PreFilter stops at once).
 * - Wait: Permit only; the pod waits in the waiting-pods map.
 * - Skip: "not for me" (Bind: try the next binder; PreFilter/PreScore: skip this plugin's Filter/Score).
 * - Pending: the cycle stops without a waste; a Queue hint from this plugin requeues at once, no backoff.
 */
export type Code =
  | 'Success'
  | 'Error'
  | 'Unschedulable'
  | 'UnschedulableAndUnresolvable'
  | 'Wait'
  | 'Skip'
  | 'Pending';

/**
 * A plugin's verdict. Invariants: immutable; `reasons` are the human-readable causes that a FitError
 * counts per node; `plugin` names the plugin that produced it (the framework stamps it on rejections).
 */
export interface Status {
  readonly code: Code;
  readonly reasons: readonly string[];
  readonly plugin?: string;
  readonly error?: Error;
}

/** The shared Success status; `undefined` means the same. */
export const SUCCESS: Status = Object.freeze({
  code: 'Success',
  reasons: Object.freeze([]) as readonly string[],
});

/** A status with the given code and reasons. */
export function newStatus(code: Code, ...reasons: string[]): Status {
  return { code, reasons };
}

/** An Error status carrying the error; its message is the error's. */
export function asStatus(error: unknown): Status {
  const err = error instanceof Error ? error : new Error(String(error));
  return { code: 'Error', reasons: [err.message], error: err };
}

/** The code of a possibly undefined status (undefined is Success). */
export function codeOf(status: Status | undefined): Code {
  return status?.code ?? 'Success';
}

export function isSuccess(status: Status | undefined): boolean {
  return status === undefined || status.code === 'Success';
}

/** Unschedulable, UnschedulableAndUnresolvable or Pending: the pod was rejected, not failed. */
export function isRejected(status: Status | undefined): boolean {
  const code = codeOf(status);
  return code === 'Unschedulable' || code === 'UnschedulableAndUnresolvable' || code === 'Pending';
}

export function isSkip(status: Status | undefined): boolean {
  return status?.code === 'Skip';
}

/** The status with `plugin` set (a new value; the input is not changed). */
export function withPlugin(status: Status, plugin: string): Status {
  return status.plugin === plugin ? status : { ...status, plugin };
}

/** The status's message: reasons joined by ", " (an error's text comes first, as upstream). */
export function statusMessage(status: Status | undefined): string {
  if (!status) return '';
  if (status.error && status.reasons[0] !== status.error.message) {
    return [status.error.message, ...status.reasons].join(', ');
  }
  return status.reasons.join(', ');
}
