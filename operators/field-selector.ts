// Field selectors: `field=value` / `field!=value` terms over dotted object paths, with apimachinery's escaping.
import { InvalidInputError } from './errors.ts';

/** One term: the field path, `=` (also written `==`) or `!=`, and the unescaped value. */
export interface FieldRequirement {
  readonly field: string;
  readonly operator: '=' | '!=';
  readonly value: string;
}

/**
 * A parsed field selector. Invariants: terms are sorted by their text as apimachinery sorts them; an
 * empty selector matches every object.
 */
export interface FieldSelector {
  readonly requirements: readonly FieldRequirement[];
  isEmpty(): boolean;
  /**
   * True when every term holds for the object. A field is read by its dotted path
   * (`metadata.name`, `spec.nodeName`, `status.phase`); a missing field reads as `''`, numbers and
   * booleans as their text.
   */
  matches(obj: unknown): boolean;
  /** The value an `=` term requires for the field, if any (`RequiresExactMatch`). */
  requiresExactMatch(field: string): string | undefined;
  /** Canonical text: terms joined by `,`, values escaped. */
  toString(): string;
}

/** Escapes `\`, `,` and `=` in a value so that it can be embedded in a field selector. */
export function escapeFieldValue(value: string): string {
  return value.replace(/[\\,=]/g, (c) => `\\${c}`);
}

/**
 * Reverses {@link escapeFieldValue}.
 * @throws InvalidInputError on an unknown escape sequence, an orphan `\`, or an unescaped `,`/`=`
 */
export function unescapeFieldValue(value: string, input = 'field selector value', field?: string): string {
  if (!/[\\,=]/.test(value)) return value;
  let out = '';
  let inSlash = false;
  for (const c of value) {
    if (inSlash) {
      if (c !== '\\' && c !== ',' && c !== '=') {
        throw new InvalidInputError(input, field, `invalid escape sequence: \\${c}`);
      }
      out += c;
      inSlash = false;
    } else if (c === '\\') inSlash = true;
    else if (c === ',' || c === '=')
      throw new InvalidInputError(input, field, `unescaped character in value: ${c}`);
    else out += c;
  }
  if (inSlash) throw new InvalidInputError(input, field, 'invalid escape sequence: \\');
  return out;
}

/** Splits on commas that are not escaped; `''` gives no terms. Exposed for the grammar tests. */
export function splitFieldTerms(selector: string): string[] {
  if (selector === '') return [];
  const terms: string[] = [];
  let start = 0;
  let inSlash = false;
  for (let i = 0; i < selector.length; i++) {
    const c = selector[i];
    if (inSlash) inSlash = false;
    else if (c === '\\') inSlash = true;
    else if (c === ',') {
      terms.push(selector.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(selector.slice(start));
  return terms;
}

/** Splits one term at its first operator (`!=`, `==`, `=`, tried in that order at each position). */
export function splitFieldTerm(term: string): { lhs: string; op: string; rhs: string } | undefined {
  for (let i = 0; i < term.length; i++) {
    for (const op of ['!=', '==', '=']) {
      if (term.startsWith(op, i)) return { lhs: term.slice(0, i), op, rhs: term.slice(i + op.length) };
    }
  }
  return undefined;
}

/** Reads a dotted path from an object as a field selector sees it: missing is `''`. */
export function fieldValue(obj: unknown, path: string): string {
  let cur: unknown = obj;
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return '';
    cur = (cur as Record<string, unknown>)[part];
  }
  if (cur === undefined || cur === null) return '';
  if (typeof cur === 'string') return cur;
  if (typeof cur === 'number' || typeof cur === 'boolean' || typeof cur === 'bigint') return String(cur);
  return '';
}

class TermsSelector implements FieldSelector {
  readonly requirements: readonly FieldRequirement[];
  constructor(requirements: readonly FieldRequirement[]) {
    this.requirements = Object.freeze(requirements.map((r) => Object.freeze({ ...r })));
    Object.freeze(this);
  }
  isEmpty(): boolean {
    return this.requirements.length === 0;
  }
  matches(obj: unknown): boolean {
    for (const r of this.requirements) {
      const actual = fieldValue(obj, r.field);
      if ((actual === r.value) !== (r.operator === '=')) return false;
    }
    return true;
  }
  requiresExactMatch(field: string): string | undefined {
    return this.requirements.find((r) => r.field === field && r.operator === '=')?.value;
  }
  toString(): string {
    return this.requirements.map((r) => `${r.field}${r.operator}${escapeFieldValue(r.value)}`).join(',');
  }
}

/** A selector requiring `field=value` for every entry; `{}` matches everything. */
export function fieldSelectorFromSet(set: Readonly<Record<string, string>>): FieldSelector {
  return new TermsSelector(
    Object.keys(set)
      .sort()
      .map((field) => ({ field, operator: '=' as const, value: set[field]! })),
  );
}

/**
 * Parses a Kubernetes field selector: comma-joined `field=value`, `field==value`, `field!=value`
 * terms, values escaped with `\` (see {@link escapeFieldValue}). Terms are sorted as apimachinery does.
 *
 * @example parseFieldSelector('spec.nodeName=node-1,status.phase!=Succeeded').matches(pod)
 * @param text the selector; `''` matches everything
 * @returns the selector
 * @throws InvalidInputError naming the selector and the term it cannot understand
 */
export function parseFieldSelector(text: string): FieldSelector {
  const input = `field selector ${JSON.stringify(text)}`;
  const parts = splitFieldTerms(text).sort();
  const requirements: FieldRequirement[] = [];
  for (const part of parts) {
    if (part === '') continue;
    const split = splitFieldTerm(part);
    if (!split)
      throw new InvalidInputError(input, `term ${JSON.stringify(part)}`, "can't understand the term");
    const value = unescapeFieldValue(split.rhs, input, `term ${JSON.stringify(part)}`);
    requirements.push({ field: split.lhs, operator: split.op === '!=' ? '!=' : '=', value });
  }
  return new TermsSelector(requirements);
}
