// The OpenAPI v2 document in gnostic's protobuf form (openapi.v2.Document), as kube-apiserver also serves it.
import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import type { JsonSchema } from './json-schema.ts';

/** The media type client-go asks for when it reads `/openapi/v2` (discovery's OpenAPISchema). */
export const OPENAPI_V2_PROTOBUF = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';

type W = BinaryWriter;
type Json = Record<string, unknown>;

const str = (w: W, no: number, v: unknown) => {
  if (typeof v === 'string' && v !== '') w.tag(no, WireType.LengthDelimited).string(v);
};
const strs = (w: W, no: number, v: unknown) => {
  if (Array.isArray(v))
    for (const s of v) if (typeof s === 'string') w.tag(no, WireType.LengthDelimited).string(s);
};
const bool = (w: W, no: number, v: unknown) => {
  if (v === true) w.tag(no, WireType.Varint).bool(true);
};
const int = (w: W, no: number, v: unknown) => {
  if (typeof v === 'number' && Number.isInteger(v)) w.tag(no, WireType.Varint).int64(v);
};
const dbl = (w: W, no: number, v: unknown) => {
  if (typeof v === 'number') w.tag(no, WireType.Bit64).double(v);
};
/** A nested message: `body` writes its fields. */
const msg = (w: W, no: number, body: (w: W) => void) => {
  w.tag(no, WireType.LengthDelimited).fork();
  body(w);
  w.join();
};
/** gnostic's Any: a value carried as YAML text (JSON is YAML). */
const any = (w: W, no: number, v: unknown) => {
  if (v !== undefined) msg(w, no, (a) => str(a, 2, `${JSON.stringify(v)}\n`));
};
/** Every `x-...` key as a NamedAny. */
const extensions = (w: W, no: number, o: Json) => {
  for (const [k, v] of Object.entries(o)) {
    if (!k.startsWith('x-')) continue;
    msg(w, no, (n) => {
      str(n, 1, k);
      any(n, 2, v);
    });
  }
};

function schema(w: W, s: JsonSchema): void {
  str(w, 1, s.$ref);
  str(w, 2, s.format);
  str(w, 3, s.title);
  str(w, 4, s.description);
  any(w, 5, s.default);
  dbl(w, 6, s.multipleOf);
  dbl(w, 7, s.maximum);
  bool(w, 8, s.exclusiveMaximum);
  dbl(w, 9, s.minimum);
  bool(w, 10, s.exclusiveMinimum);
  int(w, 11, s.maxLength);
  int(w, 12, s.minLength);
  str(w, 13, s.pattern);
  int(w, 14, s.maxItems);
  int(w, 15, s.minItems);
  bool(w, 16, s.uniqueItems);
  int(w, 17, s.maxProperties);
  int(w, 18, s.minProperties);
  strs(w, 19, s.required);
  if (Array.isArray(s.enum)) for (const e of s.enum) any(w, 20, e);
  const extra = s.additionalProperties;
  if (extra !== undefined && extra !== null) {
    msg(w, 21, (a) => {
      if (typeof extra === 'boolean') a.tag(2, WireType.Varint).bool(extra);
      else msg(a, 1, (x) => schema(x, extra as JsonSchema));
    });
  }
  if (s.type !== undefined) msg(w, 22, (t) => strs(t, 1, Array.isArray(s.type) ? s.type : [s.type]));
  if (s.items && typeof s.items === 'object') {
    const items = Array.isArray(s.items) ? s.items : [s.items];
    msg(w, 23, (i) => {
      for (const item of items) msg(i, 1, (x) => schema(x, item as JsonSchema));
    });
  }
  if (Array.isArray(s.allOf)) for (const a of s.allOf) msg(w, 24, (x) => schema(x, a as JsonSchema));
  if (s.properties && typeof s.properties === 'object') {
    msg(w, 25, (p) => {
      for (const [name, v] of Object.entries(s.properties as Record<string, JsonSchema>)) {
        msg(p, 1, (n) => {
          str(n, 1, name);
          msg(n, 2, (x) => schema(x, v));
        });
      }
    });
  }
  bool(w, 27, s.readOnly);
  extensions(w, 31, s);
}

function parameter(w: W, p: Json): void {
  msg(w, 1, (param) => {
    if (p.in === 'body') {
      msg(param, 1, (b) => {
        str(b, 1, p.description);
        str(b, 2, p.name);
        str(b, 3, p.in);
        bool(b, 4, p.required);
        if (p.schema) msg(b, 5, (x) => schema(x, p.schema as JsonSchema));
      });
      return;
    }
    msg(param, 2, (nb) => {
      // query: QueryParameterSubSchema (3); path: PathParameterSubSchema (4).
      const path = p.in === 'path';
      msg(nb, path ? 4 : 3, (q) => {
        bool(q, 1, p.required);
        str(q, 2, p.in);
        str(q, 3, p.description);
        str(q, 4, p.name);
        str(q, path ? 5 : 6, p.type);
        bool(q, path ? 19 : 20, p.uniqueItems);
      });
    });
  });
}

function operation(w: W, op: Json): void {
  str(w, 3, op.description);
  str(w, 5, op.operationId);
  strs(w, 6, op.produces);
  strs(w, 7, op.consumes);
  if (Array.isArray(op.parameters)) for (const p of op.parameters) msg(w, 8, (x) => parameter(x, p as Json));
  const responses = (op.responses ?? {}) as Record<string, Json>;
  msg(w, 9, (rs) => {
    for (const [code, r] of Object.entries(responses)) {
      msg(rs, 1, (named) => {
        str(named, 1, code);
        msg(named, 2, (value) =>
          msg(value, 1, (resp) => {
            str(resp, 1, r.description);
            if (r.schema) msg(resp, 2, (item) => msg(item, 1, (x) => schema(x, r.schema as JsonSchema)));
          }),
        );
      });
    }
  });
  strs(w, 10, op.schemes);
  extensions(w, 13, op);
}

const METHODS: Readonly<Record<string, number>> = {
  get: 2,
  put: 3,
  post: 4,
  delete: 5,
  options: 6,
  head: 7,
  patch: 8,
};

/** Encodes a Swagger 2.0 document (the JSON form this server builds) as gnostic's `openapi.v2.Document`. */
export function encodeOpenApiV2(doc: Json): Uint8Array {
  const w = new BinaryWriter();
  str(w, 1, doc.swagger);
  const info = (doc.info ?? {}) as Json;
  msg(w, 2, (i) => {
    str(i, 1, info.title);
    str(i, 2, info.version);
  });
  msg(w, 8, (paths) => {
    for (const [path, item] of Object.entries((doc.paths ?? {}) as Record<string, Record<string, Json>>)) {
      msg(paths, 2, (named) => {
        str(named, 1, path);
        msg(named, 2, (pi) => {
          for (const [method, op] of Object.entries(item)) {
            const no = METHODS[method];
            if (no !== undefined) msg(pi, no, (x) => operation(x, op));
          }
        });
      });
    }
  });
  msg(w, 9, (defs) => {
    for (const [name, s] of Object.entries((doc.definitions ?? {}) as Record<string, JsonSchema>)) {
      msg(defs, 1, (named) => {
        str(named, 1, name);
        msg(named, 2, (x) => schema(x, s));
      });
    }
  });
  return w.finish();
}
