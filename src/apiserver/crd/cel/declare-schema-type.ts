// Declares the CEL type of a CRD schema node in an environment, so rules are type-checked as kube-apiserver checks them.
import type { Environment } from '@marcbachmann/cel-js';
import type { JSONSchemaProps } from '../json-schema-props.ts';
import { celEqual } from './cel-equal.ts';
import { celShapeOf } from './cel-object-fields.ts';

let counter = 0;

const SCALARS = {
  string: 'string',
  integer: 'int',
  number: 'double',
  boolean: 'bool',
  timestamp: 'google.protobuf.Timestamp',
  duration: 'google.protobuf.Duration',
  bytes: 'bytes',
} as const;

/**
 * The CEL type name of a schema node, registering an object type (with its fields and equality)
 * for every object node below it: `int`, `double`, `string`, `bool`, `list<T>`, `map<string, T>`,
 * `dyn`, or a generated `selfTypeN` that rules cannot name (as upstream, the name changes each compile).
 * Fields without a type (nor int-or-string) are left out of their object type: rules cannot name them;
 * a node of that kind is `dyn` to its own rules.
 * @param env the environment to register in (not yet cloned)
 * @param s the schema node
 * @param root whether the node is a resource's root
 * @param types where the type of every node below is recorded (the rules of a node are checked with it)
 */
export function declareSchemaType(
  env: Environment,
  s: JSONSchemaProps | undefined,
  root = false,
  types = new Map<JSONSchemaProps, string>(),
): string {
  const type = typeOf(env, s, root, types);
  if (s) types.set(s, type);
  return type;
}

function typeOf(
  env: Environment,
  s: JSONSchemaProps | undefined,
  root: boolean,
  types: Map<JSONSchemaProps, string>,
): string {
  const shape = celShapeOf(s, root);
  switch (shape.kind) {
    case 'scalar':
      return SCALARS[shape.type];
    case 'list':
      return `list<${declareSchemaType(env, shape.items, false, types)}>`;
    case 'map':
      return `map<string, ${declareSchemaType(env, shape.values, false, types)}>`;
    case 'object': {
      const fields: Record<string, string> = {};
      for (const [celName, f] of shape.fields)
        if (celShapeOf(f.schema).kind !== 'none')
          fields[celName] = declareSchemaType(env, f.schema, false, types);
      const name = `selfType${++counter}`;
      env.registerType(name, { fields });
      env.registerOperator(`${name} == ${name}`, celEqual);
      return name;
    }
    default:
      return 'dyn';
  }
}
