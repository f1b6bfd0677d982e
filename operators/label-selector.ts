// Label selectors: the Kubernetes selector syntax parsed into requirements that match label sets.
import { InvalidInputError } from './errors.ts';

/**
 * Requirement operators, spelled as apimachinery's `selection.Operator` values:
 * `in`, `notin`, `=`, `==`, `!=`, `exists`, `!` (does not exist), `gt`, `lt`.
 */
export type LabelOperator = 'in' | 'notin' | '=' | '==' | '!=' | 'exists' | '!' | 'gt' | 'lt';

/** One clause of a selector: `key operator values`. Values are kept as given (parsing sorts and dedups). */
export interface LabelRequirement {
  readonly key: string;
  readonly operator: LabelOperator;
  readonly values: readonly string[];
}

/**
 * A parsed label selector. Invariants: requirements are sorted by key (stable), each one valid;
 * an empty selector matches everything; the `nothing` selector matches nothing.
 */
export interface LabelSelector {
  readonly requirements: readonly LabelRequirement[];
  /** True for the selector that matches nothing (a null `metav1.LabelSelector`). */
  readonly matchesNothing: boolean;
  /** True when every label set matches (no requirements). */
  isEmpty(): boolean;
  /** True when all requirements hold for the labels (missing labels count as absent). */
  matches(labels: Readonly<Record<string, string>> | undefined): boolean;
  /** The canonical text form, e.g. `app=web,tier in (a,b),!legacy`. */
  toString(): string;
}

/** The shape of `metav1.LabelSelector`, as found in Deployments, Services, PDBs, affinities. */
export interface LabelSelectorObject {
  matchLabels?: Record<string, string> | null;
  matchExpressions?: readonly { key: string; operator: string; values?: readonly string[] | null }[] | null;
}

const QUALIFIED_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** Problems with a label key, in apimachinery's wording; empty when valid. */
export function labelKeyErrors(key: string): string[] {
  const errors: string[] = [];
  const parts = key.split('/');
  let name: string;
  if (parts.length === 1) {
    name = parts[0]!;
  } else if (parts.length === 2) {
    const prefix = parts[0]!;
    name = parts[1]!;
    if (prefix.length === 0) errors.push('prefix part must be non-empty');
    else {
      if (prefix.length > 253) errors.push('prefix part must be no more than 253 characters');
      if (!DNS1123_SUBDOMAIN.test(prefix)) {
        errors.push(
          'prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, ' +
            "'-' or '.', and must start and end with an alphanumeric character",
        );
      }
    }
  } else {
    return [
      "a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end " +
        "with an alphanumeric character, with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    ];
  }
  if (name.length === 0) errors.push('name part must be non-empty');
  else if (name.length > 63) errors.push('name part must be no more than 63 characters');
  if (!QUALIFIED_NAME.test(name)) {
    errors.push(
      "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an " +
        'alphanumeric character',
    );
  }
  return errors;
}

/** Problems with a label value, in apimachinery's wording; empty when valid. */
export function labelValueErrors(value: string): string[] {
  const errors: string[] = [];
  if (value.length > 63) errors.push('must be no more than 63 characters');
  if (!LABEL_VALUE.test(value)) {
    errors.push(
      "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and " +
        'must start and end with an alphanumeric character',
    );
  }
  return errors;
}

const OPERATORS: readonly LabelOperator[] = ['in', 'notin', '=', '==', '!=', 'gt', 'lt', 'exists', '!'];

/** The first problem with a requirement as `{ field, message }`, or undefined when valid. */
function requirementProblem(
  key: string,
  operator: LabelOperator,
  values: readonly string[],
): { field: string; message: string } | undefined {
  const keyErrors = labelKeyErrors(key);
  if (keyErrors.length > 0)
    return { field: 'key', message: `invalid key ${quote(key)}: ${keyErrors.join('; ')}` };
  switch (operator) {
    case 'in':
    case 'notin':
      if (values.length === 0)
        return { field: 'values', message: "for 'in', 'notin' operators, values set can't be empty" };
      break;
    case '=':
    case '==':
    case '!=':
      if (values.length !== 1)
        return { field: 'values', message: 'exact-match compatibility requires one single value' };
      break;
    case 'exists':
    case '!':
      if (values.length !== 0) {
        return { field: 'values', message: 'values set must be empty for exists and does not exist' };
      }
      break;
    case 'gt':
    case 'lt':
      if (values.length !== 1) {
        return { field: 'values', message: "for 'Gt', 'Lt' operators, exactly one value is required" };
      }
      if (parseInt64(values[0]!) === undefined) {
        return {
          field: 'values[0]',
          message: `${quote(values[0]!)}: for 'Gt', 'Lt' operators, the value must be an integer`,
        };
      }
      break;
    default:
      return {
        field: 'operator',
        message: `unsupported operator ${quote(String(operator))}; supported: ${OPERATORS.join(', ')}`,
      };
  }
  for (let i = 0; i < values.length; i++) {
    const errs = labelValueErrors(values[i]!);
    if (errs.length > 0)
      return { field: `values[${i}][${key}]`, message: `${quote(values[i]!)}: ${errs.join('; ')}` };
  }
  return undefined;
}

/**
 * Builds one validated requirement (apimachinery's NewRequirement).
 * @param input names the selector in error messages
 * @throws InvalidInputError naming `key`, `operator` or `values[i]` when invalid
 */
export function labelRequirement(
  key: string,
  operator: LabelOperator,
  values: readonly string[],
  input = 'label selector',
): LabelRequirement {
  const problem = requirementProblem(key, operator, values);
  if (problem) throw new InvalidInputError(input, problem.field, problem.message);
  return Object.freeze({ key, operator, values: Object.freeze([...values]) });
}

function quote(s: string): string {
  return JSON.stringify(s);
}

function parseInt64(s: string): bigint | undefined {
  if (!/^[+-]?\d+$/.test(s)) return undefined;
  const n = BigInt(s);
  if (n > 9223372036854775807n || n < -9223372036854775808n) return undefined;
  return n;
}

function requirementMatches(r: LabelRequirement, labels: Readonly<Record<string, string>>): boolean {
  const has = Object.hasOwn(labels, r.key);
  switch (r.operator) {
    case 'in':
    case '=':
    case '==':
      return has && r.values.includes(labels[r.key]!);
    case 'notin':
    case '!=':
      return !has || !r.values.includes(labels[r.key]!);
    case 'exists':
      return has;
    case '!':
      return !has;
    case 'gt':
    case 'lt': {
      if (!has || r.values.length !== 1) return false;
      const actual = parseInt64(labels[r.key]!);
      const wanted = parseInt64(r.values[0]!);
      if (actual === undefined || wanted === undefined) return false;
      return r.operator === 'gt' ? actual > wanted : actual < wanted;
    }
    default:
      return false;
  }
}

function requirementString(r: LabelRequirement): string {
  const sorted = [...r.values].sort(compareStrings);
  switch (r.operator) {
    case 'exists':
      return r.key;
    case '!':
      return `!${r.key}`;
    case 'in':
      return `${r.key} in (${sorted.join(',')})`;
    case 'notin':
      return `${r.key} notin (${sorted.join(',')})`;
    case 'gt':
      return `${r.key}>${sorted.join(',')}`;
    case 'lt':
      return `${r.key}<${sorted.join(',')}`;
    default:
      return `${r.key}${r.operator}${sorted.join(',')}`;
  }
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

class RequirementsSelector implements LabelSelector {
  readonly requirements: readonly LabelRequirement[];
  readonly matchesNothing = false;
  constructor(requirements: readonly LabelRequirement[]) {
    this.requirements = Object.freeze(
      [...requirements].sort((a, b) => compareStrings(a.key, b.key)), // Array.prototype.sort is stable
    );
    Object.freeze(this);
  }
  isEmpty(): boolean {
    return this.requirements.length === 0;
  }
  matches(labels: Readonly<Record<string, string>> | undefined): boolean {
    const set = labels ?? {};
    for (const r of this.requirements) if (!requirementMatches(r, set)) return false;
    return true;
  }
  toString(): string {
    return this.requirements.map(requirementString).join(',');
  }
}

const NOTHING: LabelSelector = Object.freeze({
  requirements: Object.freeze([]) as readonly LabelRequirement[],
  matchesNothing: true,
  isEmpty: () => false,
  matches: () => false,
  toString: () => '',
});

const EVERYTHING: LabelSelector = new RequirementsSelector([]);

/** The selector that matches every label set (an empty selector). */
export function everythingLabelSelector(): LabelSelector {
  return EVERYTHING;
}

/** The selector that matches nothing (what a null `metav1.LabelSelector` means). */
export function nothingLabelSelector(): LabelSelector {
  return NOTHING;
}

/** A selector requiring every `key=value` of the set; an empty set matches everything. */
export function labelSelectorFromSet(set: Readonly<Record<string, string>> | undefined): LabelSelector {
  const entries = Object.entries(set ?? {});
  if (entries.length === 0) return EVERYTHING;
  return new RequirementsSelector(entries.map(([k, v]) => labelRequirement(k, '=', [v], 'label set')));
}

/** A selector from already-validated requirements (sorted by key). */
export function labelSelectorFromRequirements(requirements: readonly LabelRequirement[]): LabelSelector {
  return new RequirementsSelector(requirements);
}

/**
 * Converts a `metav1.LabelSelector` object (matchLabels + matchExpressions with In, NotIn, Exists,
 * DoesNotExist); `null`/`undefined` matches nothing, `{}` matches everything.
 * @throws InvalidInputError naming the offending `matchLabels`/`matchExpressions[i]` field
 */
export function labelSelectorFromObject(selector: LabelSelectorObject | null | undefined): LabelSelector {
  if (selector === null || selector === undefined) return NOTHING;
  const input = 'labelSelector';
  const requirements: LabelRequirement[] = [];
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) {
    requirements.push(labelRequirement(k, '=', [v], `${input}.matchLabels`));
  }
  (selector.matchExpressions ?? []).forEach((expr, i) => {
    const where = `${input}.matchExpressions[${i}]`;
    const op = EXPRESSION_OPERATORS[expr.operator];
    if (!op)
      throw new InvalidInputError(
        where,
        'operator',
        `${quote(expr.operator)} is not a valid label selector operator`,
      );
    requirements.push(labelRequirement(expr.key, op, [...(expr.values ?? [])], where));
  });
  return requirements.length === 0 ? EVERYTHING : new RequirementsSelector(requirements);
}

const EXPRESSION_OPERATORS: Record<string, LabelOperator> = {
  In: 'in',
  NotIn: 'notin',
  Exists: 'exists',
  DoesNotExist: '!',
};

// ---- the lexer and parser (apimachinery's grammar) ----

type Tok = 'error' | 'end' | ')' | ',' | '!' | '==' | '=' | '>' | 'id' | 'in' | '<' | '!=' | 'notin' | '(';

interface Token {
  tok: Tok;
  lit: string;
  pos: number;
}

const KEYWORDS: Record<string, Tok> = {
  ')': ')',
  ',': ',',
  '!': '!',
  '==': '==',
  '=': '=',
  '>': '>',
  in: 'in',
  '<': '<',
  '!=': '!=',
  notin: 'notin',
  '(': '(',
};

const isSpace = (c: string) => c === ' ' || c === '\t' || c === '\r' || c === '\n';
const isSpecial = (c: string) => '=!(),><'.includes(c);

function lex(s: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  for (;;) {
    while (i < s.length && isSpace(s[i]!)) i++;
    const start = i;
    if (i >= s.length) {
      out.push({ tok: 'end', lit: '', pos: start });
      return out;
    }
    if (isSpecial(s[i]!)) {
      // longest run of special characters that still forms a known symbol
      let buf = '';
      let last: Token | undefined;
      while (i < s.length && isSpecial(s[i]!)) {
        buf += s[i];
        const t = Object.hasOwn(KEYWORDS, buf) ? KEYWORDS[buf] : undefined;
        if (t) last = { tok: t, lit: buf, pos: start };
        else if (last) break;
        i++;
      }
      if (!last) {
        out.push({ tok: 'error', lit: buf, pos: start });
        return out;
      }
      i = start + last.lit.length;
      out.push(last);
    } else {
      let buf = '';
      while (i < s.length && !isSpecial(s[i]!) && !isSpace(s[i]!)) buf += s[i++];
      const t = Object.hasOwn(KEYWORDS, buf) ? KEYWORDS[buf]! : 'id';
      out.push({ tok: t, lit: buf, pos: start });
    }
  }
}

/** Tokens as a lexer sees them, exposed for the grammar tests. */
export function lexLabelSelector(text: string): { tok: string; lit: string }[] {
  return lex(text).map(({ tok, lit }) => ({ tok, lit }));
}

class Parser {
  private readonly tokens: Token[];
  private position = 0;
  private readonly input: string;
  constructor(text: string) {
    this.input = `label selector ${quote(text)}`;
    this.tokens = lex(text);
  }

  private fail(t: Token, expected: string): never {
    const found = t.tok === 'error' ? `unexpected symbol '${t.lit}'` : `found '${t.lit}'`;
    throw new InvalidInputError(this.input, `position ${t.pos}`, `${found}, expected: ${expected}`);
  }

  /** In a values context, the keywords `in`/`notin` are plain identifiers. */
  private peek(values: boolean): Token {
    const t = this.tokens[Math.min(this.position, this.tokens.length - 1)]!;
    return values && (t.tok === 'in' || t.tok === 'notin') ? { ...t, tok: 'id' } : t;
  }

  private next(values: boolean): Token {
    const t = this.peek(values);
    this.position++;
    return t;
  }

  parse(): LabelRequirement[] {
    const requirements: LabelRequirement[] = [];
    for (;;) {
      const t = this.peek(true);
      if (t.tok === 'end') return requirements;
      if (t.tok !== 'id' && t.tok !== '!') this.fail(t, "!, identifier, or 'end of string'");
      requirements.push(this.requirement());
      const after = this.next(true);
      if (after.tok === 'end') return requirements;
      if (after.tok !== ',') this.fail(after, "',' or 'end of string'");
      const t2 = this.peek(true);
      if (t2.tok !== 'id' && t2.tok !== '!') this.fail(t2, "identifier after ','");
    }
  }

  private requirement(): LabelRequirement {
    let t = this.next(true);
    let operator: LabelOperator | undefined;
    if (t.tok === '!') {
      operator = '!';
      t = this.next(true);
    }
    if (t.tok !== 'id') this.fail(t, 'identifier');
    const key = t.lit;
    const keyErrors = labelKeyErrors(key);
    if (keyErrors.length > 0) {
      throw new InvalidInputError(
        this.input,
        `position ${t.pos}`,
        `invalid key ${quote(key)}: ${keyErrors.join('; ')}`,
      );
    }
    const la = this.peek(true).tok;
    if (la === 'end' || la === ',') return this.build(key, operator ?? 'exists', [], t.pos);
    if (operator === '!') this.fail(this.peek(true), "',' or 'end of string'");
    const opTok = this.next(false);
    const op = BINARY[opTok.tok];
    if (!op) this.fail(opTok, 'in, notin, =, ==, !=, gt, lt');
    const values = op === 'in' || op === 'notin' ? this.valueList() : this.exactValue();
    return this.build(key, op, [...new Set(values)].sort(compareStrings), t.pos);
  }

  private build(key: string, op: LabelOperator, values: string[], pos: number): LabelRequirement {
    const problem = requirementProblem(key, op, values);
    if (problem)
      throw new InvalidInputError(this.input, `position ${pos}`, `${problem.field}: ${problem.message}`);
    return Object.freeze({ key, operator: op, values: Object.freeze(values) });
  }

  private valueList(): string[] {
    const open = this.next(true);
    if (open.tok !== '(') this.fail(open, "'('");
    const first = this.peek(true);
    if (first.tok === ')') {
      this.next(true);
      return [''];
    }
    if (first.tok !== 'id' && first.tok !== ',') this.fail(first, "',', ')' or identifier");
    const values: string[] = [];
    for (;;) {
      const t = this.next(true);
      if (t.tok === 'id') {
        values.push(t.lit);
        const la = this.peek(true);
        if (la.tok === ',') continue;
        if (la.tok === ')') break;
        this.fail(la, "',' or ')'");
      } else if (t.tok === ',') {
        // empty members: "(,a)", "(a,)", "(a,,b)" all contribute the empty value
        if (values.length === 0) values.push('');
        const la = this.peek(true);
        if (la.tok === ')' || la.tok === ',') values.push('');
        if (la.tok === ')') break;
      } else {
        this.fail(t, "',', or identifier");
      }
    }
    this.next(true); // the ')'
    return values;
  }

  private exactValue(): string[] {
    const la = this.peek(true);
    if (la.tok === 'end' || la.tok === ',') return [''];
    const t = this.next(true);
    if (t.tok !== 'id') this.fail(t, 'identifier');
    return [t.lit];
  }
}

const BINARY: Partial<Record<Tok, LabelOperator>> = {
  in: 'in',
  notin: 'notin',
  '=': '=',
  '==': '==',
  '!=': '!=',
  '>': 'gt',
  '<': 'lt',
};

/**
 * Parses the Kubernetes label selector syntax: comma-joined requirements `k=v`, `k==v`, `k!=v`,
 * `k in (a,b)`, `k notin (a,b)`, `k` (exists), `!k` (does not exist), `k>1`, `k<1`.
 * Requirements are sorted by key, values sorted and deduplicated, as apimachinery does.
 *
 * @example parseLabelSelector('app=web,tier in (front,back),!legacy').matches(pod.metadata.labels)
 * @param text the selector; `''` matches everything
 * @returns the selector
 * @throws InvalidInputError naming the selector and the position of the offending term
 */
export function parseLabelSelector(text: string): LabelSelector {
  const requirements = new Parser(text).parse();
  return requirements.length === 0 ? EVERYTHING : new RequirementsSelector(requirements);
}
