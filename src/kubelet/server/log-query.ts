// The /containerLogs query (upstream's PodLogOptions): parsed and validated, or an error naming the field.
import { InvalidInputError } from '../../../operators/errors.ts';
import { parseCriTimestamp } from '../../../streams/runtimes/cri-log.ts';

/** What a log request asks for; undefined fields were not given. */
export interface LogQuery {
  follow: boolean;
  previous: boolean;
  timestamps: boolean;
  tailLines?: number;
  sinceSeconds?: number;
  /** ms since the epoch. */
  sinceTime?: number;
  limitBytes?: number;
}

const INPUT = 'PodLogOptions';

function bool(q: URLSearchParams, name: string): boolean | InvalidInputError {
  const v = q.get(name);
  if (v === null || v === '' || v === 'false' || v === '0') return false;
  if (v === 'true' || v === '1') return true;
  return new InvalidInputError(INPUT, name, `invalid boolean value "${v}"`);
}

function int(q: URLSearchParams, name: string): number | undefined | InvalidInputError {
  const v = q.get(name);
  if (v === null || v === '') return undefined;
  if (!/^-?\d+$/.test(v)) return new InvalidInputError(INPUT, name, `invalid integer value "${v}"`);
  return Number(v);
}

/**
 * Parses `follow`, `previous`, `timestamps`, `tailLines`, `sinceSeconds`, `sinceTime` (RFC3339) and
 * `limitBytes` with upstream's validation: tailLines ≥ 0, sinceSeconds ≥ 1, limitBytes ≥ 1, and at most
 * one of sinceTime and sinceSeconds.
 *
 * @param q the request's query
 * @returns the query, or the first invalid field
 */
export function parseLogQuery(q: URLSearchParams): LogQuery | InvalidInputError {
  const follow = bool(q, 'follow');
  if (follow instanceof InvalidInputError) return follow;
  const previous = bool(q, 'previous');
  if (previous instanceof InvalidInputError) return previous;
  const timestamps = bool(q, 'timestamps');
  if (timestamps instanceof InvalidInputError) return timestamps;
  const tailLines = int(q, 'tailLines');
  if (tailLines instanceof InvalidInputError) return tailLines;
  if (tailLines !== undefined && tailLines < 0) {
    return new InvalidInputError(INPUT, 'tailLines', 'must be greater than or equal to 0');
  }
  const limitBytes = int(q, 'limitBytes');
  if (limitBytes instanceof InvalidInputError) return limitBytes;
  if (limitBytes !== undefined && limitBytes < 1) {
    return new InvalidInputError(INPUT, 'limitBytes', 'must be greater than 0');
  }
  const sinceSeconds = int(q, 'sinceSeconds');
  if (sinceSeconds instanceof InvalidInputError) return sinceSeconds;
  if (sinceSeconds !== undefined && sinceSeconds < 1) {
    return new InvalidInputError(INPUT, 'sinceSeconds', 'must be greater than 0');
  }
  const sinceText = q.get('sinceTime');
  let sinceTime: number | undefined;
  if (sinceText !== null && sinceText !== '') {
    sinceTime = parseCriTimestamp(sinceText);
    if (sinceTime === undefined) {
      return new InvalidInputError(INPUT, 'sinceTime', `invalid RFC3339 time "${sinceText}"`);
    }
  }
  if (sinceTime !== undefined && sinceSeconds !== undefined) {
    return new InvalidInputError(
      INPUT,
      undefined,
      'at most one of `sinceTime` or `sinceSeconds` may be specified',
    );
  }
  return {
    follow,
    previous,
    timestamps,
    ...(tailLines !== undefined ? { tailLines } : {}),
    ...(sinceSeconds !== undefined ? { sinceSeconds } : {}),
    ...(sinceTime !== undefined ? { sinceTime } : {}),
    ...(limitBytes !== undefined ? { limitBytes } : {}),
  };
}
