// The logger port: the subset of pino's API kube-rx calls, so operators log without importing pino.

type LogFn = {
  (obj: Record<string, unknown>, msg?: string): void;
  (msg: string): void;
};

/** A pino-compatible logger; `child` adds bindings such as the component name. */
export interface Logger {
  trace: LogFn;
  debug: LogFn;
  info: LogFn;
  warn: LogFn;
  error: LogFn;
  child(bindings: Record<string, unknown>): Logger;
}

const noop = () => {};

/** A logger that drops everything; the default wherever no logger is injected. */
export const silentLogger: Logger = {
  trace: noop,
  debug: noop,
  info: noop,
  warn: noop,
  error: noop,
  child: () => silentLogger,
};
