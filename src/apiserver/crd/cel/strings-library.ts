// The CEL strings extension functions the CEL library of this runtime lacks: charAt, replace, reverse, format.
import { type Environment, EvaluationError } from '@marcbachmann/cel-js';

function replace(s: string, from: string, to: string, n = -1n): string {
  // as Go's strings.Replace: an empty `from` matches before every character and at the end
  const pieces = from === '' ? ['', ...s, ''] : s.split(from);
  const glue = from === '' ? [...s] : [];
  let out = pieces[0]!;
  for (let i = 1; i < pieces.length; i++) {
    const replacing = n < 0n || BigInt(i) <= n;
    out += (replacing ? to : from) + (from === '' ? (glue[i - 1] ?? '') : pieces[i]!);
  }
  return out;
}

function shown(v: unknown): string {
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return `[${v.map(shown).join(', ')}]`;
  if (v instanceof Map) return `{${[...v].map(([k, x]) => `${shown(k)}: ${shown(x)}`).join(', ')}}`;
  if (v !== null && typeof v === 'object' && !(v instanceof Date))
    return `{${Object.entries(v)
      .map(([k, x]) => `${k}: ${shown(x)}`)
      .join(', ')}}`;
  if (v instanceof Date) return v.toISOString();
  return String(v);
}

function integer(v: unknown, verb: string): bigint {
  if (typeof v === 'bigint') return v;
  throw new EvaluationError(`error during formatting: ${verb} format requires an integer argument`);
}

/** `%s %d %f %e %x %X %o %b %%`, with an optional precision (`%.2f`), as cel-go's strings.format. */
function format(template: string, args: unknown[]): string {
  let i = 0;
  return template.replace(
    /%(?:\.(\d+))?([sdfexXob%])/g,
    (_all, precision: string | undefined, verb: string) => {
      if (verb === '%') return '%';
      if (i >= args.length) throw new EvaluationError(`index ${i} out of range`);
      const v = args[i++];
      switch (verb) {
        case 's':
          return shown(v);
        case 'd':
          return String(integer(v, '%d'));
        case 'f':
        case 'e': {
          const x = Number(v);
          const digits = precision === undefined ? 6 : Number(precision);
          return verb === 'f' ? x.toFixed(digits) : x.toExponential(digits).replace(/e([+-])(\d)$/, 'e$10$2');
        }
        case 'x':
        case 'X': {
          const text =
            typeof v === 'string' ? Buffer.from(v).toString('hex') : integer(v, `%${verb}`).toString(16);
          return verb === 'X' ? text.toUpperCase() : text;
        }
        case 'o':
          return integer(v, '%o').toString(8);
        default:
          return integer(v, '%b').toString(2);
      }
    },
  );
}

/**
 * Registers the strings extension functions Kubernetes enables (cel-go ext.Strings) that the
 * evaluator does not bring: `charAt`, `replace` (all, or the first n), `reverse` and `format`.
 * @param env the environment (not yet cloned)
 */
export function registerStringsLibrary(env: Environment): void {
  env
    .registerFunction('string.charAt(int): string', (s: string, i: bigint) => {
      const chars = [...s];
      if (i < 0n || i > BigInt(chars.length)) throw new EvaluationError(`index out of range: ${i}`);
      return chars[Number(i)] ?? '';
    })
    .registerFunction('string.replace(string, string): string', (s: string, a: string, b: string) =>
      replace(s, a, b),
    )
    .registerFunction('string.replace(string, string, int): string', replace)
    .registerFunction('string.reverse(): string', (s: string) => [...s].reverse().join(''))
    .registerFunction('string.format(list): string', format);
}
