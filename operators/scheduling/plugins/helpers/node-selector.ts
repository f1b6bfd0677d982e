// Node selectors compiled once per pod: nodeSelector labels, required terms (matchExpressions with Gt/Lt, matchFields) and preferred terms.
import type {
  Node,
  NodeSelector,
  NodeSelectorRequirement,
  NodeSelectorTerm,
  Pod,
  PreferredSchedulingTerm,
} from '../../../api/core-v1.ts';
import { InvalidInputError } from '../../../errors.ts';
import {
  type LabelOperator,
  type LabelSelector,
  labelRequirement,
  labelSelectorFromRequirements,
} from '../../../label-selector.ts';

/** A problem found while compiling a selector: the field path and the message. */
export interface SelectorProblem {
  readonly field: string;
  readonly message: string;
}

const OPERATORS: Readonly<Record<string, LabelOperator>> = {
  In: 'in',
  NotIn: 'notin',
  Exists: 'exists',
  DoesNotExist: '!',
  Gt: 'gt',
  Lt: 'lt',
};

/** The only field matchFields may name. */
export const NODE_NAME_FIELD = 'metadata.name';

interface FieldTerm {
  readonly key: string;
  readonly value: string;
  readonly equal: boolean;
}

/** One compiled term: label requirements ANDed with field requirements. */
class CompiledTerm {
  readonly labels: LabelSelector | undefined;
  readonly fields: readonly FieldTerm[] | undefined;
  constructor(labels: LabelSelector | undefined, fields: readonly FieldTerm[] | undefined) {
    this.labels = labels;
    this.fields = fields;
  }

  match(node: Node): boolean {
    if (this.labels && !this.labels.matches(node.metadata.labels)) return false;
    const name = node.metadata.name ?? '';
    if (this.fields && name !== '') {
      for (const f of this.fields) {
        const actual = f.key === NODE_NAME_FIELD ? name : '';
        if ((actual === f.value) !== f.equal) return false;
      }
    }
    return true;
  }
}

function isEmptyTerm(term: NodeSelectorTerm | undefined): boolean {
  return !term || ((term.matchExpressions?.length ?? 0) === 0 && (term.matchFields?.length ?? 0) === 0);
}

function compileRequirements(
  reqs: readonly NodeSelectorRequirement[],
  path: string,
  problems: SelectorProblem[],
): LabelSelector | undefined {
  const out = [];
  let ok = true;
  for (let i = 0; i < reqs.length; i++) {
    const r = reqs[i]!;
    const op = OPERATORS[r.operator];
    if (!op) {
      problems.push({
        field: `${path}[${i}].operator`,
        message: `Unsupported value: "${r.operator}"`,
      });
      ok = false;
      continue;
    }
    try {
      out.push(labelRequirement(r.key, op, r.values ?? [], `${path}[${i}]`));
    } catch (e) {
      const field = e instanceof InvalidInputError ? `${path}[${i}].${e.field ?? 'key'}` : `${path}[${i}]`;
      problems.push({ field, message: e instanceof Error ? e.message : String(e) });
      ok = false;
    }
  }
  return ok ? labelSelectorFromRequirements(out) : undefined;
}

function compileFields(
  reqs: readonly NodeSelectorRequirement[],
  path: string,
  problems: SelectorProblem[],
): FieldTerm[] | undefined {
  const out: FieldTerm[] = [];
  let ok = true;
  for (let i = 0; i < reqs.length; i++) {
    const r = reqs[i]!;
    if (r.operator !== 'In' && r.operator !== 'NotIn') {
      problems.push({ field: `${path}[${i}].operator`, message: `Unsupported value: "${r.operator}"` });
      ok = false;
      continue;
    }
    if ((r.values?.length ?? 0) !== 1) {
      problems.push({ field: `${path}[${i}].values`, message: 'must have one element' });
      ok = false;
      continue;
    }
    out.push({ key: r.key, value: r.values![0]!, equal: r.operator === 'In' });
  }
  return ok ? out : undefined;
}

function compileTerm(
  term: NodeSelectorTerm,
  path: string,
  problems: SelectorProblem[],
): CompiledTerm | undefined {
  const before = problems.length;
  const labels = term.matchExpressions?.length
    ? compileRequirements(term.matchExpressions, `${path}.matchExpressions`, problems)
    : undefined;
  const fields = term.matchFields?.length
    ? compileFields(term.matchFields, `${path}.matchFields`, problems)
    : undefined;
  if (problems.length > before) return undefined;
  return new CompiledTerm(labels, fields);
}

/**
 * A compiled NodeSelector: terms are ORed; an empty term selects nothing; a term with a bad
 * requirement is dropped (and reported in `problems`), as upstream's lazy-error selector.
 */
export class CompiledNodeSelector {
  readonly #terms: readonly CompiledTerm[];
  readonly problems: readonly SelectorProblem[];

  constructor(ns: NodeSelector, path = 'nodeSelectorTerms') {
    const terms: CompiledTerm[] = [];
    const problems: SelectorProblem[] = [];
    (ns.nodeSelectorTerms ?? []).forEach((term, i) => {
      if (isEmptyTerm(term)) return;
      const t = compileTerm(term, `${path}[${i}]`, problems);
      if (t) terms.push(t);
    });
    this.#terms = terms;
    this.problems = problems;
  }

  match(node: Node | undefined): boolean {
    if (!node) return false;
    for (const t of this.#terms) if (t.match(node)) return true;
    return false;
  }
}

/** Compiles a NodeSelector (see CompiledNodeSelector). */
export function compileNodeSelector(ns: NodeSelector, path?: string): CompiledNodeSelector {
  return new CompiledNodeSelector(ns, path);
}

/** True when every `key=value` of `selector` is among the node's labels (an empty selector matches all). */
export function matchesNodeSelectorLabels(
  selector: Readonly<Record<string, string>>,
  labels: Readonly<Record<string, string>> | undefined,
): boolean {
  for (const k in selector) {
    if (!labels || labels[k] !== selector[k]) return false;
  }
  return true;
}

/** A pod's spec.nodeSelector ANDed with its required node affinity (upstream's RequiredNodeAffinity). */
export class RequiredNodeAffinity {
  readonly #labels: Readonly<Record<string, string>> | undefined;
  readonly #affinity: CompiledNodeSelector | undefined;

  constructor(pod: Pod) {
    const sel = pod.spec.nodeSelector;
    this.#labels = sel && Object.keys(sel).length > 0 ? sel : undefined;
    const req = pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
    this.#affinity = req ? new CompiledNodeSelector(req) : undefined;
  }

  match(node: Node | undefined): boolean {
    if (!node) return false;
    if (this.#labels && !matchesNodeSelectorLabels(this.#labels, node.metadata.labels)) return false;
    if (this.#affinity) return this.#affinity.match(node);
    return true;
  }
}

/** Compiles the pod's nodeSelector and required node affinity. */
export function requiredNodeAffinity(pod: Pod): RequiredNodeAffinity {
  return new RequiredNodeAffinity(pod);
}

/**
 * Preferred scheduling terms: a node's score is the sum of the weights of the terms it matches.
 * Terms with weight 0 or an empty preference are skipped; a bad term is reported in `problems`.
 */
export class PreferredSchedulingTerms {
  readonly #terms: readonly { term: CompiledTerm; weight: number }[];
  readonly problems: readonly SelectorProblem[];

  constructor(terms: readonly PreferredSchedulingTerm[], path = '') {
    const out: { term: CompiledTerm; weight: number }[] = [];
    const problems: SelectorProblem[] = [];
    terms.forEach((t, i) => {
      if (!t.weight || isEmptyTerm(t.preference)) return;
      const c = compileTerm(t.preference, `${path}[${i}].preference`, problems);
      if (c) out.push({ term: c, weight: t.weight });
    });
    this.#terms = out;
    this.problems = problems;
  }

  score(node: Node | undefined): number {
    if (!node) return 0;
    let sum = 0;
    for (const t of this.#terms) if (t.term.match(node)) sum += t.weight;
    return sum;
  }
}
