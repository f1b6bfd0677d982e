// JSON patch (RFC 6902): add, remove, replace, move, copy and test operations over JSON pointers.
import { KubeRxError } from '../../operators/errors.ts';
import { isPlainObject } from './merge-patch.ts';

/** A JSON patch that cannot be applied: a malformed operation, a missing path or a failed test. */
export class JsonPatchError extends KubeRxError {
  /** Index of the failing operation in the patch. */
  readonly operation: number;
  constructor(operation: number, message: string) {
    super('KUBE_RX_JSON_PATCH', `operation ${operation}: ${message}`);
    this.operation = operation;
  }
}

type Container = Record<string, unknown> | unknown[];

function parsePointer(pointer: string, index: number): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/'))
    throw new JsonPatchError(index, `invalid JSON pointer ${JSON.stringify(pointer)}`);
  return pointer
    .slice(1)
    .split('/')
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const ka = Object.keys(a);
    return (
      ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]))
    );
  }
  return false;
}

function arrayIndex(arr: unknown[], token: string, forAdd: boolean, op: number): number {
  if (forAdd && token === '-') return arr.length;
  if (!/^(0|[1-9]\d*)$/.test(token))
    throw new JsonPatchError(op, `invalid array index ${JSON.stringify(token)}`);
  const i = Number(token);
  if (i > arr.length || (!forAdd && i === arr.length))
    throw new JsonPatchError(op, `array index ${i} out of bounds`);
  return i;
}

/** Walks to the parent of the pointer's last token. */
function parentOf(doc: unknown, tokens: string[], op: number): Container {
  let cur: unknown = doc;
  for (const t of tokens.slice(0, -1)) {
    if (Array.isArray(cur)) cur = cur[arrayIndex(cur, t, false, op)];
    else if (isPlainObject(cur) && Object.hasOwn(cur, t)) cur = cur[t];
    else throw new JsonPatchError(op, `path /${tokens.join('/')} does not exist`);
  }
  if (!Array.isArray(cur) && !isPlainObject(cur)) {
    throw new JsonPatchError(op, `path /${tokens.join('/')} does not exist`);
  }
  return cur;
}

function get(doc: unknown, tokens: string[], op: number): unknown {
  if (tokens.length === 0) return doc;
  const parent = parentOf(doc, tokens, op);
  const last = tokens[tokens.length - 1]!;
  if (Array.isArray(parent)) return parent[arrayIndex(parent, last, false, op)];
  if (!Object.hasOwn(parent, last)) throw new JsonPatchError(op, `path /${tokens.join('/')} does not exist`);
  return parent[last];
}

function add(doc: unknown, tokens: string[], value: unknown, op: number): unknown {
  if (tokens.length === 0) return value;
  const parent = parentOf(doc, tokens, op);
  const last = tokens[tokens.length - 1]!;
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, last, true, op), 0, value);
  else parent[last] = value;
  return doc;
}

function remove(doc: unknown, tokens: string[], op: number): unknown {
  if (tokens.length === 0) throw new JsonPatchError(op, 'cannot remove the whole document');
  const parent = parentOf(doc, tokens, op);
  const last = tokens[tokens.length - 1]!;
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, last, false, op), 1);
  else if (Object.hasOwn(parent, last)) delete parent[last];
  else throw new JsonPatchError(op, `path /${tokens.join('/')} does not exist`);
  return doc;
}

/**
 * Applies an RFC 6902 JSON patch to a copy of `document`.
 *
 * Example: `jsonPatch({a: [1]}, [{op: 'add', path: '/a/-', value: 2}])` is `{a: [1, 2]}`.
 * @param document the JSON document
 * @param patch the list of operations
 * @returns the patched copy
 * @throws JsonPatchError naming the failing operation
 */
export function jsonPatch(document: unknown, patch: unknown): unknown {
  if (!Array.isArray(patch)) throw new JsonPatchError(0, 'a JSON patch must be an array of operations');
  let doc: unknown = structuredClone(document);
  patch.forEach((raw, i) => {
    if (!isPlainObject(raw) || typeof raw.op !== 'string' || typeof raw.path !== 'string') {
      throw new JsonPatchError(i, 'each operation needs string "op" and "path"');
    }
    const path = parsePointer(raw.path, i);
    const needsValue = raw.op === 'add' || raw.op === 'replace' || raw.op === 'test';
    if (needsValue && !Object.hasOwn(raw, 'value'))
      throw new JsonPatchError(i, `"${raw.op}" needs a "value"`);
    const value = structuredClone(raw.value);
    switch (raw.op) {
      case 'add':
        doc = add(doc, path, value, i);
        break;
      case 'remove':
        doc = remove(doc, path, i);
        break;
      case 'replace':
        get(doc, path, i);
        doc = path.length === 0 ? value : add(remove(doc, path, i), path, value, i);
        break;
      case 'move':
      case 'copy': {
        if (typeof raw.from !== 'string') throw new JsonPatchError(i, `"${raw.op}" needs a "from"`);
        const from = parsePointer(raw.from, i);
        if (raw.op === 'move' && path.length > from.length && from.every((t, k) => path[k] === t)) {
          throw new JsonPatchError(i, 'cannot move a value into one of its children');
        }
        const moved = structuredClone(get(doc, from, i));
        if (raw.op === 'move') doc = remove(doc, from, i);
        doc = add(doc, path, moved, i);
        break;
      }
      case 'test':
        if (!deepEqual(get(doc, path, i), value)) {
          throw new JsonPatchError(
            i,
            `test failed: value at ${raw.path} differs from ${JSON.stringify(value)}`,
          );
        }
        break;
      default:
        throw new JsonPatchError(i, `unknown op ${JSON.stringify(raw.op)}`);
    }
  });
  return doc;
}
