// Commander argument parsers shared by the subcommands: each names its flag in the usage error it raises.
import { InvalidArgumentError } from 'commander';
import { parseGoDuration } from '../kubelet/go-duration.ts';

/** A TCP port, 0 to 65535 (0 picks a free one). */
export function portFlag(flag: string): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!/^\d+$/.test(value) || n > 65535)
      throw new InvalidArgumentError(`${flag}: not a port number: ${value}`);
    return n;
  };
}

/** A number greater than zero (rates, bursts). */
export function positiveNumberFlag(flag: string): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!(n > 0)) throw new InvalidArgumentError(`${flag}: must be a number > 0, got ${value}`);
    return n;
  };
}

/** A Go duration (`15s`, `500ms`, `1m30s`; a bare number other than 0 has no unit and is refused, as in Go), in ms. */
export function goDurationFlag(flag: string): (value: string) => number {
  return (value) => {
    try {
      return parseGoDuration(flag, value);
    } catch {
      throw new InvalidArgumentError(`${flag}: not a duration (e.g. 15s, 500ms, 1m30s): ${value}`);
    }
  };
}
