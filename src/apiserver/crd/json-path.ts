// The JSONPath subset CRD printer columns and selectable fields use (kubectl's, without the braces).
import { isJsonObject } from './json-schema-props.ts';

/** One step of a parsed path. */
export type JsonPathStep =
  | { type: 'field'; name: string }
  | { type: 'index'; index: number }
  | { type: 'all' }
  | { type: 'filter'; path: JsonPathStep[]; op: '==' | '!=' | 'exists'; value?: unknown };

/** A path that does not parse; `message` says where. */
export class JsonPathError extends Error {
  readonly code = 'KUBE_RX_JSONPATH';
}

function fieldName(expr: string, i: number): [string, number] {
  let name = '';
  while (i < expr.length && expr[i] !== '.' && expr[i] !== '[') {
    if (expr[i] === '\\' && i + 1 < expr.length) i++;
    name += expr[i];
    i++;
  }
  return [name, i];
}

function literal(text: string): unknown {
  const t = text.trim();
  if (/^'.*'$/.test(t)) return t.slice(1, -1);
  if (/^".*"$/.test(t)) return JSON.parse(t);
  if (t === 'true' || t === 'false') return t === 'true';
  if (t === 'null') return null;
  if (/^-?\d+(\.\d+)?$/.test(t)) return Number(t);
  throw new JsonPathError(`unrecognized literal ${JSON.stringify(t)}`);
}

/**
 * Parses a simple JSONPath such as `.spec.replicas`, `.status.conditions[?(@.type=="Ready")].status`,
 * `.spec.items[0].name`, `.spec.items[*].name` or `.metadata.labels.app\.kubernetes\.io/name`.
 * @throws JsonPathError naming the problem
 */
export function parseJsonPath(expr: string): JsonPathStep[] {
  let text = expr.trim();
  if (text.startsWith('{') && text.endsWith('}')) text = text.slice(1, -1).trim();
  if (text.startsWith('$')) text = text.slice(1);
  const steps: JsonPathStep[] = [];
  let i = 0;
  if (text !== '' && text[0] !== '.' && text[0] !== '[') {
    throw new JsonPathError(`unrecognized identifier ${text}`);
  }
  while (i < text.length) {
    const c = text[i];
    if (c === '.') {
      if (text[i + 1] === '.') throw new JsonPathError('recursive descent is not supported');
      const [name, next] = fieldName(text, i + 1);
      if (name === '') {
        if (next >= text.length) break;
        throw new JsonPathError(`empty field name at ${i}`);
      }
      steps.push(name === '*' ? { type: 'all' } : { type: 'field', name });
      i = next;
    } else if (c === '[') {
      const end = text.indexOf(']', text.startsWith('[?(', i) ? text.indexOf(')]', i) : i);
      if (end < 0) throw new JsonPathError(`unclosed array expect ]`);
      const inner = text.slice(i + 1, end).trim();
      i = end + 1;
      if (inner === '*') steps.push({ type: 'all' });
      else if (/^-?\d+$/.test(inner)) steps.push({ type: 'index', index: Number(inner) });
      else if (/^'.*'$|^".*"$/.test(inner)) steps.push({ type: 'field', name: String(literal(inner)) });
      else if (inner.startsWith('?(') && inner.endsWith(')')) {
        const cond = inner.slice(2, -1).trim();
        const m = /^@((?:\.[^.=!\s]+)+)\s*(==|!=)\s*(.+)$/.exec(cond);
        if (m) {
          steps.push({
            type: 'filter',
            path: parseJsonPath(m[1]!),
            op: m[2] as '==' | '!=',
            value: literal(m[3]!),
          });
        } else if (/^@(\.[^.=!\s]+)+$/.test(cond)) {
          steps.push({ type: 'filter', path: parseJsonPath(cond.slice(1)), op: 'exists' });
        } else throw new JsonPathError(`unrecognized filter ${JSON.stringify(cond)}`);
      } else throw new JsonPathError(`unrecognized array index ${JSON.stringify(inner)}`);
    } else {
      throw new JsonPathError(`unrecognized character ${JSON.stringify(c)} at ${i}`);
    }
  }
  return steps;
}

/** Every value the steps reach in `root`, in document order. */
export function jsonPathValues(root: unknown, steps: readonly JsonPathStep[]): unknown[] {
  let current: unknown[] = [root];
  for (const step of steps) {
    const next: unknown[] = [];
    for (const v of current) {
      if (step.type === 'field') {
        if (isJsonObject(v) && step.name in v) next.push(v[step.name]);
      } else if (step.type === 'index') {
        if (Array.isArray(v)) {
          const at = step.index < 0 ? v.length + step.index : step.index;
          if (at >= 0 && at < v.length) next.push(v[at]);
        }
      } else if (step.type === 'all') {
        if (Array.isArray(v)) next.push(...v);
        else if (isJsonObject(v)) next.push(...Object.values(v));
      } else {
        const items = Array.isArray(v) ? v : isJsonObject(v) ? Object.values(v) : [];
        for (const item of items) {
          const found = jsonPathValues(item, step.path);
          const ok =
            step.op === 'exists'
              ? found.length > 0
              : step.op === '=='
                ? found.some((f) => f === step.value)
                : found.length > 0 && found.every((f) => f !== step.value);
          if (ok) next.push(item);
        }
      }
    }
    current = next;
  }
  return current;
}

/** A value as kubectl's JSONPath printer writes it: strings bare, the rest as JSON. */
export function jsonPathText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}
