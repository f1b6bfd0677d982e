// Compiles every x-kubernetes-validations rule of a CRD version's schema once: type-checked per node, programs ready to run.
import type { Environment, ParseResult } from '@marcbachmann/cel-js';
import type { StatusCause } from '../../api-status.ts';
import { fieldError } from '../field-error.ts';
import { isJsonObject, type JSONSchemaProps } from '../json-schema-props.ts';
import { celBaseEnvironment } from './cel-base-environment.ts';
import { celCompileError } from './cel-compile-error.ts';
import { declareSchemaType } from './declare-schema-type.ts';
import { re2Pattern } from './re2-pattern.ts';
import { RE2_MATCHES } from './regex-library.ts';
import { rewriteRuleSource } from './rewrite-rule-source.ts';
import { ruleFieldPath } from './rule-field-path.ts';
import { VALIDATION_RULE_REASONS, type ValidationRule } from './validation-rule.ts';

/** A rule ready to run: its program (or why it has none), whether it is a transition rule, its message program. */
export interface CompiledRule {
  source: ValidationRule;
  /** Runs the rule on `{self, oldSelf}`; absent when the rule is empty or did not compile. */
  program?: ParseResult;
  /** The compile error, reported when the rule would run (a CRD stored before this server checked it). */
  error?: string;
  usesOldSelf: boolean;
  optionalOldSelf: boolean;
  messageProgram?: ParseResult;
  /** The normalized fieldPath: errors are reported at the node's path joined with it. */
  fieldPath?: string;
}

/** The rules of one schema node and the nodes below it that have rules (nodes without any are left out). */
export interface RuleNode {
  schema: JSONSchemaProps;
  rules: CompiledRule[];
  properties: Map<string, RuleNode>;
  additionalProperties?: RuleNode;
  items?: RuleNode;
  allOf: RuleNode[];
}

/** The compiled rules of a schema (`root` undefined: no rules anywhere) and the problems found compiling them. */
export interface CompiledSchemaRules {
  root?: RuleNode;
  problems: StatusCause[];
}

const evalEnvs: { plain?: Environment; optional?: Environment } = {};

/**
 * Where rules run: self and oldSelf dynamic (oldSelf an optional for optionalOldSelf rules), values
 * as toCelValue makes them; the type checks were done at compile.
 */
function evaluationEnvironment(optional = false): Environment {
  const key = optional ? 'optional' : 'plain';
  let env = evalEnvs[key];
  if (!env) {
    env = celBaseEnvironment();
    env.registerVariable('self', 'dyn').registerVariable('oldSelf', optional ? 'optional<dyn>' : 'dyn');
    evalEnvs[key] = env;
  }
  return env;
}

function usesOldSelf(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(usesOldSelf);
  if (node === null || typeof node !== 'object') return false;
  const n = node as { op?: unknown; args?: unknown };
  if (n.op === 'id') return n.args === 'oldSelf';
  return usesOldSelf(n.args);
}

interface AstNode {
  op?: unknown;
  args?: unknown;
  start?: number;
  end?: number;
}

function hasArguments(node: unknown, out: AstNode[] = []): AstNode[] {
  if (Array.isArray(node)) for (const n of node) hasArguments(n, out);
  else if (node !== null && typeof node === 'object') {
    const n = node as AstNode;
    if (n.op === 'call' && Array.isArray(n.args) && n.args[0] === 'has' && Array.isArray(n.args[1]))
      out.push(...(n.args[1] as AstNode[]));
    hasArguments(n.args, out);
  }
  return out;
}

/**
 * The evaluator's has() does not check that the field it tests is declared; cel-go does. Each
 * has() argument is checked on its own: an undeclared field is the error (arguments naming a
 * macro's variable cannot be checked alone and are left to run time).
 */
function undeclaredHasField(env: Environment, source: string): unknown {
  for (const arg of hasArguments(env.parse(source).ast)) {
    if (arg.start === undefined || arg.end === undefined) continue;
    const checked = env.check(source.slice(arg.start, arg.end));
    const error = checked.error as
      | { summary?: string; message?: string; range?: { start: number } }
      | undefined;
    const text = error?.summary ?? error?.message ?? '';
    if (!checked.valid && text.startsWith('No such key'))
      return { ...error, summary: text, range: { start: arg.start + (error?.range?.start ?? 0) } };
  }
  return undefined;
}

const REGEX_FUNCTIONS = new Set(['matches', 'find', 'findAll', RE2_MATCHES]);

/** The first constant pattern given to matches/find/findAll that does not compile, as cel-go finds it when it plans the program. */
function badConstantRegex(node: unknown): string | undefined {
  if (Array.isArray(node)) {
    for (const n of node) {
      const bad = badConstantRegex(n);
      if (bad) return bad;
    }
    return undefined;
  }
  if (node === null || typeof node !== 'object') return undefined;
  const n = node as AstNode;
  if (
    (n.op === 'rcall' || n.op === 'call') &&
    Array.isArray(n.args) &&
    REGEX_FUNCTIONS.has(n.args[0] as string)
  ) {
    const params = (n.op === 'rcall' ? n.args[2] : n.args[1]) as AstNode[] | undefined;
    const pattern = params?.[n.op === 'rcall' ? 0 : 1];
    if (pattern?.op === 'value' && typeof pattern.args === 'string') {
      try {
        re2Pattern(pattern.args);
      } catch (err) {
        return `program instantiation failed: error parsing regexp: ${(err as Error).message}`;
      }
    }
  }
  return badConstantRegex(n.args);
}

/** What a rule is shown as in a CRD-time error: the rule entry itself. */
const shownRule = (r: ValidationRule) => r;

class Compiler {
  readonly problems: StatusCause[] = [];
  private readonly types = new Map<JSONSchemaProps, string>();
  private readonly schemaEnv: Environment;
  private readonly envs = new Map<string, Environment>();

  constructor(root: JSONSchemaProps) {
    this.schemaEnv = celBaseEnvironment();
    declareSchemaType(this.schemaEnv, root, true, this.types);
  }

  private checkEnv(typeNode: JSONSchemaProps, optional: boolean): Environment {
    const type = this.types.get(typeNode) ?? 'dyn';
    const key = `${type}/${optional}`;
    let env = this.envs.get(key);
    if (!env) {
      env = this.schemaEnv.clone();
      env.registerVariable('self', type).registerVariable('oldSelf', optional ? `optional<${type}>` : type);
      this.envs.set(key, env);
    }
    return env;
  }

  build(
    s: JSONSchemaProps,
    typeNode: JSONSchemaProps,
    path: string,
    uncorrelatable?: string,
  ): RuleNode | undefined {
    const rules = (Array.isArray(s['x-kubernetes-validations']) ? s['x-kubernetes-validations'] : [])
      .map((r, i) =>
        isJsonObject(r) ? this.rule(r as ValidationRule, i, s, typeNode, path, uncorrelatable) : undefined,
      )
      .filter((r): r is CompiledRule => r !== undefined);
    const properties = new Map<string, RuleNode>();
    for (const [k, p] of Object.entries(s.properties ?? {})) {
      const below = this.build(p, typeNode.properties?.[k] ?? p, `${path}.properties[${k}]`, uncorrelatable);
      if (below) properties.set(k, below);
    }
    const ap = isJsonObject(s.additionalProperties) ? (s.additionalProperties as JSONSchemaProps) : undefined;
    const apType = isJsonObject(typeNode.additionalProperties)
      ? (typeNode.additionalProperties as JSONSchemaProps)
      : ap;
    const additionalProperties =
      ap && this.build(ap, apType ?? ap, `${path}.additionalProperties`, uncorrelatable);
    const mapList = s['x-kubernetes-list-type'] === 'map' || typeNode['x-kubernetes-list-type'] === 'map';
    const items =
      s.items &&
      this.build(
        s.items,
        typeNode.items ?? s.items,
        `${path}.items`,
        uncorrelatable ?? (mapList ? undefined : `${path}.items`),
      );
    const allOf = (s.allOf ?? [])
      .map((sub, i) => this.build(sub, typeNode, `${path}.allOf[${i}]`, uncorrelatable))
      .filter((n): n is RuleNode => n !== undefined);
    if (!rules.length && !properties.size && !additionalProperties && !items && !allOf.length)
      return undefined;
    return { schema: typeNode, rules, properties, additionalProperties, items, allOf };
  }

  private rule(
    r: ValidationRule,
    i: number,
    s: JSONSchemaProps,
    typeNode: JSONSchemaProps,
    path: string,
    uncorrelatable: string | undefined,
  ): CompiledRule | undefined {
    const at = `${path}.x-kubernetes-validations[${i}]`;
    const out: CompiledRule = { source: r, usesOldSelf: false, optionalOldSelf: r.optionalOldSelf === true };
    if (r.reason !== undefined && !(VALIDATION_RULE_REASONS as readonly string[]).includes(r.reason))
      this.problems.push(fieldError.notSupported(`${at}.reason`, r.reason, VALIDATION_RULE_REASONS));
    if (r.fieldPath) {
      const fp = ruleFieldPath(r.fieldPath, s.properties || s.additionalProperties ? s : typeNode);
      if ('error' in fp)
        this.problems.push(
          fieldError.invalid(`${at}.fieldPath`, r.fieldPath, `fieldPath must be a valid path: ${fp.error}`),
        );
      else out.fieldPath = fp.path;
    }
    if (r.message !== undefined) {
      if (!r.message.trim())
        this.problems.push(fieldError.required(`${at}.message`, 'message must be non-empty if specified'));
      else if (/\n/.test(r.message))
        this.problems.push(
          fieldError.invalid(`${at}.message`, r.message, 'message must not contain line breaks'),
        );
    }
    const source = typeof r.rule === 'string' ? r.rule : '';
    if (!source.trim()) {
      this.problems.push(fieldError.required(`${at}.rule`, 'rule is not specified'));
      return undefined;
    }
    const env = this.checkEnv(typeNode, out.optionalOldSelf);
    const program = rewriteRuleSource(env, source);
    const checked = env.check(program);
    const hasError = checked.valid ? undeclaredHasField(env, source) : undefined;
    if (!checked.valid) out.error = `compilation failed: ${celCompileError(checked.error, source)}`;
    else if (hasError) out.error = `compilation failed: ${celCompileError(hasError, source)}`;
    else if (checked.type !== 'bool') out.error = 'cel expression must evaluate to a bool';
    else out.error = badConstantRegex(env.parse(program).ast);
    if (out.error) {
      this.problems.push(fieldError.invalid(`${at}.rule`, shownRule(r), out.error));
      return out;
    }
    out.program = evaluationEnvironment(out.optionalOldSelf).parse(program);
    out.usesOldSelf = usesOldSelf(out.program.ast);
    if (out.usesOldSelf && uncorrelatable)
      this.problems.push(
        fieldError.invalid(
          `${at}.rule`,
          source,
          `oldSelf cannot be used on the uncorrelatable portion of the schema within ${uncorrelatable}`,
        ),
      );
    if (!out.usesOldSelf && r.optionalOldSelf !== undefined)
      this.problems.push(
        fieldError.invalid(
          `${at}.optionalOldSelf`,
          r.optionalOldSelf,
          'may not be set if oldSelf is not used in rule',
        ),
      );
    if (r.messageExpression !== undefined) this.messageExpression(r.messageExpression, env, at, r, out);
    return out;
  }

  private messageExpression(
    text: string,
    env: Environment,
    at: string,
    r: ValidationRule,
    out: CompiledRule,
  ): void {
    if (!text.trim()) {
      this.problems.push(
        fieldError.required(`${at}.messageExpression`, 'messageExpression must be non-empty if specified'),
      );
      return;
    }
    const program = rewriteRuleSource(env, text);
    const checked = env.check(program);
    const problem = !checked.valid
      ? `messageExpression compilation failed: ${celCompileError(checked.error, text)}`
      : checked.type !== 'string'
        ? 'messageExpression must evaluate to a string'
        : undefined;
    if (problem) this.problems.push(fieldError.invalid(`${at}.messageExpression`, shownRule(r), problem));
    else out.messageProgram = evaluationEnvironment(out.optionalOldSelf).parse(program);
  }
}

/**
 * Compiles the CEL rules of a CRD version's schema as kube-apiserver does at CRD create and update:
 * each rule is type-checked with `self` (and `oldSelf`) typed by its node, must give a bool (its
 * messageExpression a string), and a transition rule may not sit below a list that is not a map
 * list. Problems carry upstream's field paths under `path`
 * (`...openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule`).
 * @param schema the version's openAPIV3Schema (its root is a resource: apiVersion, kind, metadata)
 * @param path the path of the schema in the CRD, for the problems
 * @returns the rule tree (to run with validateCelRules) and the problems
 */
export function compileSchemaRules(schema: JSONSchemaProps, path = 'openAPIV3Schema'): CompiledSchemaRules {
  const compiler = new Compiler(schema);
  const root = compiler.build(schema, schema, path);
  return { root, problems: compiler.problems };
}
