// A CEL parse or type error written as cel-go writes its issues: ERROR: <input>:line:column: detail, then the line and a caret.

interface CelError {
  message: string;
  summary?: string;
  range?: { start: number };
  node?: { start?: number; pos?: number };
}

const OPERATORS: Record<string, string> = {
  '+': '_+_',
  '-': '_-_',
  '*': '_*_',
  '/': '_/_',
  '%': '_%_',
  '<': '_<_',
  '<=': '_<=_',
  '>': '_>_',
  '>=': '_>=_',
  '==': '_==_',
  '!=': '_!=_',
  in: '@in',
};

/** The evaluator's wording of the common checker errors in cel-go's words. */
function inCelGoWords(detail: string): string {
  const field = /^No such key: (.*)$/.exec(detail);
  if (field) return `undefined field '${field[1]}'`;
  const op = /^no such overload: (.+) (==|!=|<=|>=|<|>|\+|-|\*|\/|%|in) (.+)$/.exec(detail);
  if (op) return `found no matching overload for '${OPERATORS[op[2]!]}' applied to '(${op[1]}, ${op[3]})'`;
  const unknown = /^Unknown variable: (.*)$/.exec(detail);
  if (unknown) return `undeclared reference to '${unknown[1]}' (in container '')`;
  return detail;
}

/**
 * The error as cel-go's `issues.String()` reads: `ERROR: <input>:1:6: <detail>`, the source line and
 * a caret under the column.
 * @param err the evaluator's ParseError or TypeError
 * @param source the expression
 */
export function celCompileError(err: unknown, source: string): string {
  const e = err as CelError;
  const detail = inCelGoWords(e.summary ?? String(e.message).split('\n')[0]!);
  const at = e.range?.start ?? e.node?.start ?? e.node?.pos;
  if (at === undefined) return `ERROR: <input>: ${detail}`;
  const before = source.slice(0, at).split('\n');
  const line = before.length;
  const column = before[before.length - 1]!.length + 1;
  const text = source.split('\n')[line - 1] ?? '';
  return `ERROR: <input>:${line}:${column}: ${detail}\n | ${text}\n | ${'.'.repeat(column - 1)}^`;
}
