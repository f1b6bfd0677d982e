// Rewrites a rule's source where the evaluator's own forms fall short of cel-go: has() below an index, and matches() with RE2 patterns.
import type { Environment } from '@marcbachmann/cel-js';
import { RE2_MATCHES } from './regex-library.ts';

/** The function put in place of has(e.f) when e is not a chain of fields from a variable. */
export const HAS_FIELD = '_has';

interface Node {
  op?: unknown;
  args?: unknown;
  start?: number;
  end?: number;
}

interface Edit {
  start: number;
  end: number;
  text: string;
}

const isNode = (n: unknown): n is Node => n !== null && typeof n === 'object' && !Array.isArray(n);

/** The variable a chain of field selections starts from, or undefined when it starts elsewhere (an index, a call). */
function chainRoot(n: Node): Node {
  let at = n;
  while ((at.op === '.' || at.op === '.?') && Array.isArray(at.args) && isNode(at.args[0])) at = at.args[0];
  return at;
}

function editOf(n: Node, source: string): Edit | undefined {
  const text = (x: unknown) =>
    isNode(x) && x.start !== undefined ? source.slice(x.start, x.end) : undefined;
  if (n.start === undefined || n.end === undefined || !Array.isArray(n.args)) return undefined;
  const [name, a, b] = n.args as [unknown, unknown, unknown];
  if (n.op === 'call' && name === 'has' && Array.isArray(a) && isNode(a[0])) {
    const arg = a[0];
    if (arg.op === '.' && Array.isArray(arg.args) && chainRoot(arg).op !== 'id') {
      const target = text(arg.args[0]);
      if (target !== undefined)
        return {
          start: n.start,
          end: n.end,
          text: `${HAS_FIELD}(${target}, ${JSON.stringify(arg.args[1])})`,
        };
    }
  }
  if (n.op === 'rcall' && name === 'matches' && Array.isArray(b) && b.length === 1) {
    const [s, p] = [text(a), text(b[0])];
    if (s !== undefined && p !== undefined)
      return { start: n.start, end: n.end, text: `${RE2_MATCHES}(${s}, ${p})` };
  }
  if (n.op === 'call' && name === 'matches' && Array.isArray(a) && a.length === 2) {
    const [s, p] = [text(a[0]), text(a[1])];
    if (s !== undefined && p !== undefined)
      return { start: n.start, end: n.end, text: `${RE2_MATCHES}(${s}, ${p})` };
  }
  return undefined;
}

function firstEdit(node: unknown, source: string): Edit | undefined {
  if (Array.isArray(node)) {
    for (const n of node) {
      const e = firstEdit(n, source);
      if (e) return e;
    }
    return undefined;
  }
  if (!isNode(node)) return undefined;
  return editOf(node, source) ?? firstEdit(node.args, source);
}

/**
 * The rule's source with `has(e.f)`, where `e` is not a field chain from a variable (`has(self.l[0].f)`,
 * which the evaluator's has() refuses), written `_has(e, "f")`, and every `s.matches(p)` written
 * `_re2Matches(s, p)` so patterns are read as RE2 (`(?i)` and the like). A source that does not
 * parse is returned as it is (the checker reports it).
 * @param env an environment with the rule's variables
 * @param source the rule
 */
export function rewriteRuleSource(env: Environment, source: string): string {
  let text = source;
  for (let i = 0; i < 1000; i++) {
    let ast: unknown;
    try {
      ast = env.parse(text).ast;
    } catch {
      return text;
    }
    const edit = firstEdit(ast, text);
    if (!edit) return text;
    text = text.slice(0, edit.start) + edit.text + text.slice(edit.end);
  }
  return text;
}
