// validateJobSpec: a Job's spec (or a CronJob's job template's) as upstream's batch validation checks it.
import type { StatusCause } from '../../api-status.ts';
import { fieldError } from './field-error.ts';
import { formatErrors } from './format-rules.ts';
import { type Obj, shape } from './json-shape.ts';
import { validatePodTemplate } from './pod-template-validation.ts';

const MAX_INDEXED_PARALLELISM = 100_000;
const MAX_FAILED_INDEXES = 100_000;
const MAX_INDEXED_COMPLETIONS_WITH_PER_INDEX_LIMIT = 100_000;
const MAX_RULES = 20;
const MAX_EXIT_CODES = 255;
const MAX_CONDITION_PATTERNS = 20;
const MAX_SUCCESS_RULES = 20;
const MAX_SUCCEEDED_INDEXES_LENGTH = 64 * 1024;
const ACTIONS = ['Count', 'FailIndex', 'FailJob', 'Ignore'];
const STATUSES = ['False', 'True', 'Unknown'];
const OPERATORS = ['In', 'NotIn'];
const REPLACEMENT = ['Failed', 'TerminatingOrFailed'];

/** Go's %q of a []string: `["a" "b"]`. */
const goList = (values: readonly string[]) => `[${values.map((v) => JSON.stringify(v)).join(' ')}]`;

function exitCodesCauses(rule: Obj, path: string, containers: ReadonlySet<string>): StatusCause[] {
  const out: StatusCause[] = [];
  const operator = shape.str(rule.operator) ?? '';
  if (operator === '')
    out.push(fieldError.required(`${path}.operator`, `valid values: ${goList(OPERATORS)}`));
  else if (!OPERATORS.includes(operator))
    out.push(fieldError.notSupported(`${path}.operator`, operator, OPERATORS));
  const container = rule.containerName;
  if (container !== undefined && container !== null && !containers.has(shape.text(container)))
    out.push(
      fieldError.invalid(
        `${path}.containerName`,
        container,
        'must be one of the container or initContainer names in the pod template',
      ),
    );
  const values = Array.isArray(rule.values) ? (rule.values as number[]) : [];
  if (values.length === 0)
    out.push(fieldError.invalid(`${path}.values`, values, 'at least one value is required'));
  else if (values.length > MAX_EXIT_CODES)
    out.push(fieldError.tooMany(`${path}.values`, values.length, MAX_EXIT_CODES));
  const seen = new Set<number>();
  let ordered = true;
  values.forEach((v, j) => {
    if (operator === 'In' && v === 0)
      out.push(fieldError.invalid(`${path}.values[${j}]`, v, 'must not be 0 for the In operator'));
    if (seen.has(v)) out.push(fieldError.duplicate(`${path}.values[${j}]`, v));
    seen.add(v);
    if (j > 0 && values[j - 1]! > v) ordered = false;
  });
  if (!ordered) out.push(fieldError.invalid(`${path}.values`, values, 'must be ordered'));
  return out;
}

function podFailurePolicyCauses(spec: Obj, path: string): StatusCause[] {
  const out: StatusCause[] = [];
  const rules = shape.list(shape.obj(spec.podFailurePolicy).rules);
  if (rules.length > MAX_RULES) out.push(fieldError.tooMany(`${path}.rules`, rules.length, MAX_RULES));
  const podSpec = shape.obj(shape.obj(spec.template).spec);
  const containers = new Set(
    [...shape.list(podSpec.containers), ...shape.list(podSpec.initContainers)].map((c) =>
      shape.text(c.name ?? ''),
    ),
  );
  rules.forEach((rule, i) => {
    const at = `${path}.rules[${i}]`;
    const action = shape.str(rule.action) ?? '';
    if (action === '') out.push(fieldError.required(`${at}.action`, `valid values: ${goList(ACTIONS)}`));
    else if (action === 'FailIndex') {
      if (spec.backoffLimitPerIndex === undefined || spec.backoffLimitPerIndex === null)
        out.push(fieldError.invalid(`${at}.action`, action, 'requires the backoffLimitPerIndex to be set'));
    } else if (!ACTIONS.includes(action)) out.push(fieldError.notSupported(`${at}.action`, action, ACTIONS));
    const hasExitCodes = rule.onExitCodes !== undefined && rule.onExitCodes !== null;
    if (hasExitCodes)
      out.push(...exitCodesCauses(shape.obj(rule.onExitCodes), `${at}.onExitCodes`, containers));
    const conditions = shape.list(rule.onPodConditions);
    if (conditions.length > MAX_CONDITION_PATTERNS)
      out.push(fieldError.tooMany(`${at}.onPodConditions`, conditions.length, MAX_CONDITION_PATTERNS));
    conditions.forEach((pattern, j) => {
      const p = `${at}.onPodConditions[${j}]`;
      const type = shape.str(pattern.type) ?? '';
      out.push(...formatErrors.qualifiedName(type).map((m) => fieldError.invalid(`${p}.type`, type, m)));
      const status = shape.str(pattern.status) ?? '';
      if (status === '') out.push(fieldError.required(`${p}.status`, `valid values: ${goList(STATUSES)}`));
      else if (!STATUSES.includes(status)) out.push(fieldError.notSupported(`${p}.status`, status, STATUSES));
    });
    if (hasExitCodes && conditions.length > 0)
      out.push(
        fieldError.invalidOmitValue(at, 'specifying both OnExitCodes and OnPodConditions is not supported'),
      );
    if (!hasExitCodes && conditions.length === 0)
      out.push(
        fieldError.invalidOmitValue(at, 'specifying one of OnExitCodes and OnPodConditions is required'),
      );
  });
  return out;
}

/** How many indexes `1,3-5` names, or why it is malformed (indexes must be below `completions`, increasing). */
function countIndexes(text: string, completions: number): number | string {
  if (text === '') return 0;
  let last: number | undefined;
  let total = 0;
  for (const interval of text.split(',')) {
    const limits = interval.split('-');
    if (limits.length > 2)
      return `the fragment ${JSON.stringify(interval)} violates the requirement that an index interval can have at most two parts separated by '-'`;
    for (const [k, limit] of limits.entries()) {
      if (!/^[+-]?\d+$/.test(limit))
        return `cannot convert string to integer for index: ${JSON.stringify(limit)}`;
      const n = Number(limit);
      if (n >= completions) return `too large index: ${JSON.stringify(limit)}`;
      if (last !== undefined && last >= n) return `non-increasing order, previous: ${last}, current: ${n}`;
      total += k === 0 ? 1 : n - last!;
      last = n;
    }
  }
  return total;
}

function successPolicyCauses(spec: Obj, path: string): StatusCause[] {
  const out: StatusCause[] = [];
  const rules = shape.list(shape.obj(spec.successPolicy).rules);
  if (rules.length === 0)
    out.push(
      fieldError.required(
        `${path}.rules`,
        'at least one rules must be specified when the successPolicy is specified',
      ),
    );
  if (rules.length > MAX_SUCCESS_RULES)
    out.push(fieldError.tooMany(`${path}.rules`, rules.length, MAX_SUCCESS_RULES));
  const completions = shape.num(spec.completions) ?? 0;
  rules.forEach((rule, i) => {
    const at = `${path}.rules[${i}]`;
    const count = shape.num(rule.succeededCount);
    const indexes = shape.str(rule.succeededIndexes);
    if (count === undefined && indexes === undefined)
      out.push(
        fieldError.required(at, 'at least one of succeededCount or succeededIndexes must be specified'),
      );
    let total = 0;
    if (indexes !== undefined) {
      if (indexes.length > MAX_SUCCEEDED_INDEXES_LENGTH)
        out.push(fieldError.tooLong(`${at}.succeededIndexes`, MAX_SUCCEEDED_INDEXES_LENGTH));
      const counted = countIndexes(indexes, completions);
      if (typeof counted === 'string')
        out.push(
          fieldError.invalid(`${at}.succeededIndexes`, indexes, `error parsing succeededIndexes: ${counted}`),
        );
      else total = counted;
    }
    if (count !== undefined) {
      out.push(...fieldError.nonNegative(`${at}.succeededCount`, count));
      if (count > completions)
        out.push(
          fieldError.invalid(
            `${at}.succeededCount`,
            count,
            `must be less than or equal to ${completions} (the number of specified completions)`,
          ),
        );
      if (indexes !== undefined && count > total)
        out.push(
          fieldError.invalid(
            `${at}.succeededCount`,
            count,
            `must be less than or equal to ${total} (the number of indexes in the specified succeededIndexes field)`,
          ),
        );
    }
  });
  return out;
}

function indexedCauses(spec: Obj, path: string): StatusCause[] {
  const out: StatusCause[] = [];
  const completions = shape.num(spec.completions);
  const parallelism = shape.num(spec.parallelism);
  const maxFailed = shape.num(spec.maxFailedIndexes);
  if (completions === undefined)
    out.push(fieldError.required(`${path}.completions`, 'when completion mode is Indexed'));
  if (parallelism !== undefined && parallelism > MAX_INDEXED_PARALLELISM)
    out.push(
      fieldError.invalid(
        `${path}.parallelism`,
        parallelism,
        `must be less than or equal to ${MAX_INDEXED_PARALLELISM} when completion mode is Indexed`,
      ),
    );
  if (completions !== undefined && maxFailed !== undefined && maxFailed > completions)
    out.push(
      fieldError.invalid(`${path}.maxFailedIndexes`, maxFailed, 'must be less than or equal to completions'),
    );
  if (maxFailed !== undefined && maxFailed > MAX_FAILED_INDEXES)
    out.push(
      fieldError.invalid(
        `${path}.maxFailedIndexes`,
        maxFailed,
        `must be less than or equal to ${MAX_FAILED_INDEXES}`,
      ),
    );
  if (
    completions !== undefined &&
    completions > MAX_INDEXED_COMPLETIONS_WITH_PER_INDEX_LIMIT &&
    spec.backoffLimitPerIndex !== undefined &&
    spec.backoffLimitPerIndex !== null
  )
    out.push(
      fieldError.invalid(
        `${path}.completions`,
        completions,
        `must be less than or equal to ${MAX_INDEXED_COMPLETIONS_WITH_PER_INDEX_LIMIT} when backoffLimitPerIndex is specified`,
      ),
    );
  return out;
}

/**
 * A Job spec: non-negative counts and deadlines; Indexed-only fields (backoffLimitPerIndex,
 * maxFailedIndexes, successPolicy) only in Indexed mode, with their bounds; podFailurePolicy rules
 * (an action, exit codes or pod conditions but not both, ordered unique codes, no 0 under In);
 * podReplacementPolicy; the pod template with restartPolicy OnFailure or Never (Never under a
 * podFailurePolicy).
 * @param spec the Job spec
 * @param path its field path: `spec`, or `spec.jobTemplate.spec` in a CronJob
 * @param names also check container names and images (see PodSpecOptions)
 * @returns the causes, empty when valid
 */
export function validateJobSpec(spec: Obj, path: string, names: boolean): StatusCause[] {
  const out: StatusCause[] = [];
  for (const field of [
    'parallelism',
    'completions',
    'activeDeadlineSeconds',
    'backoffLimit',
    'ttlSecondsAfterFinished',
    'backoffLimitPerIndex',
    'maxFailedIndexes',
  ])
    out.push(...fieldError.nonNegative(`${path}.${field}`, spec[field]));
  const has = (field: string) => spec[field] !== undefined && spec[field] !== null;
  if (has('maxFailedIndexes') && !has('backoffLimitPerIndex'))
    out.push(fieldError.required(`${path}.backoffLimitPerIndex`, 'when maxFailedIndexes is specified'));
  const indexed = spec.completionMode === 'Indexed';
  if (indexed) out.push(...indexedCauses(spec, path));
  else if (
    spec.completionMode === undefined ||
    spec.completionMode === null ||
    spec.completionMode === 'NonIndexed'
  ) {
    for (const field of ['backoffLimitPerIndex', 'maxFailedIndexes'])
      if (has(field)) out.push(fieldError.forbidden(`${path}.${field}`, 'requires indexed completion mode'));
  }
  if (has('podFailurePolicy')) out.push(...podFailurePolicyCauses(spec, `${path}.podFailurePolicy`));
  if (has('successPolicy')) {
    if (!indexed)
      out.push(
        fieldError.invalid(`${path}.successPolicy`, spec.successPolicy, 'requires indexed completion mode'),
      );
    else out.push(...successPolicyCauses(spec, `${path}.successPolicy`));
  }
  if (has('podReplacementPolicy')) {
    const policy = spec.podReplacementPolicy;
    if (has('podFailurePolicy')) {
      if (policy !== 'Failed')
        out.push(fieldError.notSupported(`${path}.podReplacementPolicy`, policy, ['Failed']));
    } else if (!REPLACEMENT.includes(shape.text(policy)))
      out.push(fieldError.notSupported(`${path}.podReplacementPolicy`, policy, REPLACEMENT));
  }
  if (has('template') || names) {
    out.push(
      ...validatePodTemplate(spec.template ?? {}, `${path}.template`, {
        restartPolicies: ['OnFailure', 'Never'],
        names,
      }),
    );
    const restart = shape.obj(shape.obj(spec.template).spec).restartPolicy;
    if (has('podFailurePolicy') && restart === 'OnFailure')
      out.push(
        fieldError.invalid(
          `${path}.template.spec.restartPolicy`,
          restart,
          'only "Never" is supported when podFailurePolicy is specified',
        ),
      );
  }
  return out;
}
