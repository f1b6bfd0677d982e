// expandEnvReferences: the kubelet's `$(VAR)` expansion in command, args and env values.

/**
 * Expands `$(NAME)` with `lookup(NAME)`; an unknown name, an unterminated `$(` and a `$` before any
 * other character stay as written, and `$$` is an escaped `$` (`$$(X)` gives the literal `$(X)`).
 *
 * @example expandEnvReferences('echo $(GREETING) $$(HOME)', (n) => (n === 'GREETING' ? 'hi' : undefined))
 * // 'echo hi $(HOME)'
 * @param input the text
 * @param lookup the value of a name, undefined when unknown
 * @returns the expanded text
 */
export function expandEnvReferences(input: string, lookup: (name: string) => string | undefined): string {
  let out = '';
  let i = 0;
  while (i < input.length) {
    const ch = input[i];
    if (ch !== '$' || i + 1 >= input.length) {
      out += ch;
      i++;
      continue;
    }
    const next = input[i + 1];
    if (next === '$') {
      out += '$';
      i += 2;
      continue;
    }
    if (next === '(') {
      const close = input.indexOf(')', i + 2);
      if (close < 0) {
        out += input.slice(i);
        break;
      }
      const name = input.slice(i + 2, close);
      const value = name.length > 0 ? lookup(name) : undefined;
      out += value ?? `$(${name})`;
      i = close + 1;
      continue;
    }
    out += `$${next}`;
    i += 2;
  }
  return out;
}
