// gnostic's protobuf form of the v2 document: the fields client-go's OpenAPISchema and kubectl read.
import { BinaryReader, WireType } from '@bufbuild/protobuf/wire';
import { describe, expect, it } from 'vitest';
import {
  encodeOpenApiV2,
  OpenApiSchemas,
  openApiV2Document,
} from '../../../../src/apiserver/openapi/index.ts';
import { RESOURCES } from '../../../../src/apiserver/resource-table.ts';

/** The fields of one message: number → raw values (bytes for length-delimited, numbers otherwise). */
function fields(bytes: Uint8Array): Map<number, (Uint8Array | number | bigint)[]> {
  const r = new BinaryReader(bytes);
  const out = new Map<number, (Uint8Array | number | bigint)[]>();
  while (r.pos < r.len) {
    const [no, wire] = r.tag();
    const value =
      wire === WireType.LengthDelimited
        ? r.bytes()
        : wire === WireType.Bit64
          ? r.double()
          : wire === WireType.Varint
            ? r.int64()
            : Number.NaN;
    out.set(no, [...(out.get(no) ?? []), value as Uint8Array | number | bigint]);
  }
  return out;
}
const text = (b: unknown) => new TextDecoder().decode(b as Uint8Array);
const one = (m: Map<number, unknown[]>, no: number) => m.get(no)?.[0] as Uint8Array;
/** NamedX entries (name 1, value 2) of a repeated field, by name. */
function named(m: Map<number, unknown[]>, no: number): Map<string, Uint8Array> {
  return new Map(
    (m.get(no) ?? []).map((e) => {
      const f = fields(e as Uint8Array);
      return [text(one(f, 1)), one(f, 2)];
    }),
  );
}

describe('the v2 document in protobuf', () => {
  const doc = openApiV2Document(RESOURCES, new OpenApiSchemas()) as Record<string, unknown>;
  const top = fields(encodeOpenApiV2(doc));

  it('carries swagger, info and every path with its operations', () => {
    expect(text(one(top, 1))).toBe('2.0');
    expect(text(one(fields(one(top, 2)), 1))).toBe('Kubernetes');
    const paths = named(fields(one(top, 8)), 2);
    expect(paths.size).toBe(Object.keys(doc.paths as object).length);
    const pod = fields(paths.get('/api/v1/namespaces/{namespace}/pods/{name}')!);
    const patch = fields(one(pod, 8));
    expect(text(one(patch, 5))).toBe('patchPod');
    const ext = named(patch, 13);
    expect(text(one(fields(ext.get('x-kubernetes-group-version-kind')!), 2))).toBe(
      '{"group":"","version":"v1","kind":"Pod"}\n',
    );
    // Parameters: query ones as NonBodyParameter.QueryParameterSubSchema, with their names.
    const names = (patch.get(8) ?? []).map((p) => {
      const nonBody = fields(one(fields(one(fields(p as Uint8Array), 1)), 2));
      return text(one(fields(one(nonBody, 3)), 4));
    });
    expect(names).toContain('fieldValidation');
  });

  it('carries every definition with its properties, refs, types and extensions', () => {
    const defs = named(fields(one(top, 9)), 1);
    expect(defs.size).toBe(Object.keys(doc.definitions as object).length);
    const deployment = fields(defs.get('io.k8s.api.apps.v1.Deployment')!);
    expect(text(one(fields(one(deployment, 22)), 1))).toBe('object');
    const props = named(fields(one(deployment, 25)), 1);
    expect([...props.keys()]).toEqual(['apiVersion', 'kind', 'metadata', 'spec', 'status']);
    expect(text(one(fields(props.get('spec')!), 1))).toBe('#/definitions/io.k8s.api.apps.v1.DeploymentSpec');
    const containers = fields(
      named(fields(one(fields(defs.get('io.k8s.api.core.v1.PodSpec')!), 25)), 1).get('containers')!,
    );
    const items = fields(one(containers, 23));
    expect(text(one(fields(one(items, 1)), 1))).toBe('#/definitions/io.k8s.api.core.v1.Container');
    const ext = named(containers, 31);
    expect(text(one(fields(ext.get('x-kubernetes-patch-merge-key')!), 2))).toBe('"name"\n');
    const labels = fields(
      named(fields(one(fields(defs.get('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta')!), 25)), 1).get(
        'labels',
      )!,
    );
    expect(text(one(fields(one(fields(one(labels, 21)), 1)), 22))).toContain('string');
  });
});
