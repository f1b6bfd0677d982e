// Creates the root pino logger with secrets redacted; components take child loggers from it.
import { createRequire } from 'node:module';
import type * as Pino from 'pino';
import type { Logger } from '../../operators/logger.ts';

/** pino, loaded by the first createLogger: a process that never creates a logger (an informer with the silent default) does not pay for it. */
const loadPino = (): typeof Pino.pino => (createRequire(import.meta.url)('pino') as typeof Pino).pino;

/** Paths whose values are replaced by `[Redacted]` in every log line. */
export const REDACTED_PATHS = [
  'token',
  'bearerToken',
  'password',
  'clientKey',
  'clientKeyData',
  'keyData',
  'authorization',
  'headers.authorization',
  'headers.Authorization',
  '*.token',
  '*.bearerToken',
  '*.password',
  '*.clientKey',
  '*.clientKeyData',
  '*.keyData',
  '*.authorization',
  '*.headers.authorization',
  '*.headers.Authorization',
  'user.token',
  'user.password',
  'user.keyData',
];

export interface LoggerConfig {
  /** pino level; default `info`, or `$KUBE_RX_LOG_LEVEL`. */
  level?: string;
  /** Where lines go; default stderr, so that stdout stays free for command output. */
  destination?: NodeJS.WritableStream | number;
}

/** The root logger: JSON lines on stderr, secrets redacted. */
export function createLogger(config: LoggerConfig = {}): Logger {
  const level = config.level ?? process.env.KUBE_RX_LOG_LEVEL ?? 'info';
  const pino = loadPino();
  const destination =
    typeof config.destination === 'object'
      ? config.destination
      : pino.destination({ dest: config.destination ?? 2, sync: true });
  return pino(
    { level, redact: { paths: REDACTED_PATHS, censor: '[Redacted]' } },
    destination,
  ) as unknown as Logger;
}
