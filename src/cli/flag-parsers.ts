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

/**
 * `--feature-gates A=true,B=false` as the Kubernetes components parse it: `key=value` pairs of booleans,
 * each key one of `known` (a later flag adds to an earlier one's map).
 */
export function featureGatesFlag(
  flag: string,
  known: Readonly<Record<string, boolean>>,
): (value: string, previous?: Record<string, boolean>) => Record<string, boolean> {
  return (value, previous = {}) => {
    const gates = { ...previous };
    for (const pair of value.split(',')) {
      const part = pair.trim();
      if (part === '') continue;
      const eq = part.indexOf('=');
      if (eq < 0) throw new InvalidArgumentError(`${flag}: missing bool value for ${part}`);
      const key = part.slice(0, eq).trim();
      const raw = part.slice(eq + 1).trim();
      if (!(key in known)) throw new InvalidArgumentError(`${flag}: unrecognized feature gate: ${key}`);
      const bool = parseGoBool(raw);
      if (bool === undefined) {
        throw new InvalidArgumentError(
          `${flag}: invalid value of ${key}=${raw}, err: strconv.ParseBool: parsing ${JSON.stringify(raw)}: invalid syntax`,
        );
      }
      gates[key] = bool;
    }
    return gates;
  };
}

/** Go's strconv.ParseBool. */
function parseGoBool(text: string): boolean | undefined {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(text)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(text)) return false;
  return undefined;
}
