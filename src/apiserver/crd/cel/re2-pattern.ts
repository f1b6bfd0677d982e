// An RE2 pattern (the syntax CEL's matches, find and findAll take) as a JavaScript regular expression.

const POSIX_CLASSES: Record<string, string> = {
  alpha: 'A-Za-z',
  digit: '0-9',
  alnum: '0-9A-Za-z',
  upper: 'A-Z',
  lower: 'a-z',
  space: '\\t\\n\\v\\f\\r ',
  xdigit: '0-9A-Fa-f',
  word: '0-9A-Za-z_',
  punct: '!-\\/:-@\\[-`{-~',
};

const cache = new Map<string, RegExp | Error>();

function translate(pattern: string, global: boolean): RegExp {
  let source = pattern;
  let flags = global ? 'g' : '';
  // a flag group at the start (or right after ^) sets the flags of the whole pattern
  const leading = /^(\^?)\(\?([imsU]+)\)/.exec(source);
  if (leading) {
    if (leading[2]!.includes('U')) throw new Error('invalid or unsupported Perl syntax: `(?U`');
    flags += [...new Set(leading[2])].join('');
    source = leading[1] + source.slice(leading[0].length);
  }
  source = source
    .replace(/\(\?P</g, '(?<')
    .replace(/\\A/g, '^')
    .replace(/\\z/g, '$(?![\\s\\S])')
    .replace(/\[:(\w+):\]/g, (all, name: string) => POSIX_CLASSES[name] ?? all);
  try {
    return new RegExp(source, `${flags}u`);
  } catch {
    // RE2 allows escaping any punctuation; JavaScript's Unicode mode does not
    return new RegExp(source, flags);
  }
}

/**
 * The JavaScript regular expression of an RE2 pattern: a leading flag group (`(?i)`, `(?s)`, `(?m)`,
 * also after `^`) becomes flags, `(?P<name>` a named group, `\A` and `\z` anchors, POSIX classes (`[[:alpha:]]`)
 * ranges; Unicode mode when the pattern allows it. Compiled once per pattern.
 * @param pattern the RE2 pattern
 * @param global whether to match globally (findAll)
 * @throws Error with the reason when the pattern does not compile
 */
export function re2Pattern(pattern: string, global = false): RegExp {
  const key = `${global ? 'g' : '-'}${pattern}`;
  let re = cache.get(key);
  if (!re) {
    try {
      re = translate(pattern, global);
    } catch (err) {
      re = err as Error;
    }
    if (cache.size > 1000) cache.clear();
    cache.set(key, re);
  }
  if (re instanceof Error) throw re;
  if (global) re.lastIndex = 0;
  return re;
}
