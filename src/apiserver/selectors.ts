// Label and field selectors: parsing the query strings of list and watch, and matching objects.
import type { KubeObject } from '../../operators/types.ts';
import { badRequest } from './api-status.ts';
import { fieldAt } from './resource-table.ts';

type LabelOp = 'exists' | '!exists' | '=' | '!=' | 'in' | 'notin' | 'gt' | 'lt';

/** One requirement of a label selector. */
export interface LabelRequirement {
  key: string;
  op: LabelOp;
  values: string[];
}

/** A parsed selector: a predicate over an object, `empty` when it selects everything. */
export interface Selector {
  readonly empty: boolean;
  matches(object: KubeObject): boolean;
}

const EVERYTHING: Selector = { empty: true, matches: () => true };

const LABEL_KEY =
  /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

function checkKey(key: string, input: string): void {
  const name = key.includes('/') ? key.slice(key.indexOf('/') + 1) : key;
  if (!LABEL_KEY.test(key) || name.length > 63 || key.length - name.length > 254) {
    throw badRequest(`unable to parse requirement: invalid label key "${key}" in selector "${input}"`);
  }
}

function checkValue(value: string, input: string): void {
  if (value.length > 63 || !LABEL_VALUE.test(value)) {
    throw badRequest(`unable to parse requirement: invalid label value: "${value}" in selector "${input}"`);
  }
}

/** Splits on commas that are not inside parentheses. */
function splitTop(input: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < input.length; i++) {
    const ch = input[i];
    if (ch === '(') depth++;
    else if (ch === ')') depth--;
    else if (ch === ',' && depth === 0) {
      parts.push(input.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(input.slice(start));
  return parts;
}

/**
 * Parses a label selector (`a=b,c!=d,e in (x,y),f notin (z),g,!h,n>3`) as Kubernetes does.
 * @throws ApiStatusError 400 naming the bad requirement
 */
export function parseLabelSelector(input: string | undefined): LabelRequirement[] {
  if (!input || input.trim() === '') return [];
  const reqs: LabelRequirement[] = [];
  for (const raw of splitTop(input)) {
    const part = raw.trim();
    if (part === '')
      throw badRequest(`unable to parse requirement: empty requirement in selector "${input}"`);
    const set = /^(\S+)\s+(in|notin)\s*\((.*)\)$/.exec(part);
    if (set) {
      const key = set[1]!;
      checkKey(key, input);
      const values = set[3]!
        .split(',')
        .map((v) => v.trim())
        .filter((v, _i, all) => v !== '' || all.length === 1);
      for (const v of values) checkValue(v, input);
      reqs.push({ key, op: set[2] as 'in' | 'notin', values });
      continue;
    }
    const cmp = /^([^=!<>\s]+)\s*(==|=|!=|>|<)\s*(.*)$/.exec(part);
    if (cmp) {
      const key = cmp[1]!;
      const value = cmp[3]!.trim();
      checkKey(key, input);
      const op = cmp[2]!;
      if (op === '>' || op === '<') {
        if (!/^-?\d+$/.test(value)) {
          throw badRequest(
            `unable to parse requirement: for 'gt', 'lt' operators, the value must be an integer in selector "${input}"`,
          );
        }
        reqs.push({ key, op: op === '>' ? 'gt' : 'lt', values: [value] });
      } else {
        checkValue(value, input);
        reqs.push({ key, op: op === '!=' ? '!=' : '=', values: [value] });
      }
      continue;
    }
    const neg = part.startsWith('!');
    const key = neg ? part.slice(1).trim() : part;
    checkKey(key, input);
    reqs.push({ key, op: neg ? '!exists' : 'exists', values: [] });
  }
  return reqs;
}

/** True when the labels satisfy every requirement. */
export function labelsMatch(
  reqs: readonly LabelRequirement[],
  labels: Record<string, string> | undefined,
): boolean {
  const l = labels ?? {};
  for (const r of reqs) {
    const has = Object.hasOwn(l, r.key);
    const v = l[r.key];
    switch (r.op) {
      case 'exists':
        if (!has) return false;
        break;
      case '!exists':
        if (has) return false;
        break;
      case '=':
      case 'in':
        if (!has || !r.values.includes(v!)) return false;
        break;
      case '!=':
      case 'notin':
        if (has && r.values.includes(v!)) return false;
        break;
      case 'gt':
      case 'lt': {
        if (!has || !/^-?\d+$/.test(v!)) return false;
        const n = Number(v);
        const bound = Number(r.values[0]);
        if (r.op === 'gt' ? !(n > bound) : !(n < bound)) return false;
        break;
      }
    }
  }
  return true;
}

/** A label selector as a Selector. */
export function labelSelector(input: string | undefined): Selector {
  const reqs = parseLabelSelector(input);
  if (reqs.length === 0) return EVERYTHING;
  return { empty: false, matches: (o) => labelsMatch(reqs, o.metadata?.labels) };
}

/** One requirement of a field selector. */
export interface FieldRequirement {
  field: string;
  op: '=' | '!=';
  value: string;
}

function unescapeField(value: string): string {
  return value.replace(/\\(.)/g, '$1');
}

/**
 * Parses a field selector (`metadata.name=x,spec.nodeName!=`), accepting only the given fields.
 * @throws ApiStatusError 400 for a malformed term or an unsupported field
 */
export function parseFieldSelector(
  input: string | undefined,
  allowed: readonly string[],
): FieldRequirement[] {
  if (!input || input.trim() === '') return [];
  const reqs: FieldRequirement[] = [];
  const terms = input.split(/(?<!\\),/);
  for (const term of terms) {
    const m = /^(.*?)(?<!\\)(!=|==|=)(.*)$/.exec(term);
    if (!m) throw badRequest(`invalid selector: '${input}'; can't understand '${term}'`);
    const field = m[1]!.trim();
    if (field !== 'metadata.name' && field !== 'metadata.namespace' && !allowed.includes(field)) {
      throw badRequest(`field label not supported: ${field}`);
    }
    reqs.push({ field, op: m[2] === '!=' ? '!=' : '=', value: unescapeField(m[3]!) });
  }
  return reqs;
}

function fieldString(object: KubeObject, field: string): string {
  const v = fieldAt(object, field);
  if (v === undefined || v === null) return '';
  if (field === 'source' && typeof v === 'object')
    return String((v as { component?: string }).component ?? '');
  return String(v);
}

/** A field selector as a Selector. */
export function fieldSelector(input: string | undefined, allowed: readonly string[]): Selector {
  const reqs = parseFieldSelector(input, allowed);
  if (reqs.length === 0) return EVERYTHING;
  return {
    empty: false,
    matches: (o) => reqs.every((r) => (fieldString(o, r.field) === r.value) === (r.op === '=')),
  };
}

/** Both selectors at once. */
export function bothSelectors(a: Selector, b: Selector): Selector {
  if (a.empty) return b;
  if (b.empty) return a;
  return { empty: false, matches: (o) => a.matches(o) && b.matches(o) };
}

/** The single name a `metadata.name=x` field selector pins, if it does. */
export function pinnedName(input: string | undefined): string | undefined {
  if (!input) return undefined;
  const m = /^metadata\.name==?([^,]*)$/.exec(input.trim());
  return m ? m[1] : undefined;
}
