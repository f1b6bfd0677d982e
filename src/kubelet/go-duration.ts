// parseGoDuration: Go's time.ParseDuration for the kubelet's duration flags ("20s", "1m30s", "500ms").
import { InvalidConfigError } from '../../operators/errors.ts';

const UNITS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/**
 * Parses a Go duration into milliseconds; "0" is zero.
 * @param field the flag or field name, for the error
 * @param text e.g. `20s`, `1m30s`, `1.5h`, `250ms`
 * @returns milliseconds
 * @throws InvalidConfigError naming the field when the text is not a duration
 */
export function parseGoDuration(field: string, text: string): number {
  const s = text.trim();
  if (s === '0') return 0;
  const re = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/gy;
  let total = 0;
  let at = 0;
  for (let m = re.exec(s); m; m = re.exec(s)) {
    total += Number(m[1]) * UNITS[m[2]!]!;
    at = re.lastIndex;
  }
  if (s === '' || at !== s.length)
    throw new InvalidConfigError(field, `invalid duration ${JSON.stringify(text)}`);
  return total;
}
