// Properties of the protobuf object codec: JSON → protobuf → JSON for every kind the server knows.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeObject, encodeObject } from '../../../../src/apiserver/protobuf/object-codec.ts';
import { protobufKinds } from '../../../../src/apiserver/protobuf/protobuf-kinds.ts';
import { apiVersionOf, RESOURCES } from '../../../../src/apiserver/resource-table.ts';
import { kubeObjectArb } from './arb-kube-json.ts';

const KINDS = [
  ...protobufKinds(),
  { apiVersion: 'v1', kind: 'Status', message: 'meta/v1.Status' },
  { apiVersion: 'meta.k8s.io/v1', kind: 'DeleteOptions', message: 'meta/v1.DeleteOptions' },
];
const RUNS = Number(process.env.PROTOBUF_PROP_RUNS ?? 25);

describe('protobuf object codec', () => {
  it('knows every kind the embedded API server serves, and its List (CRDs are served in JSON only)', () => {
    const known = new Set(KINDS.map((k) => `${k.apiVersion}/${k.kind}`));
    const jsonOnly = new Set(['apiextensions.k8s.io/v1/CustomResourceDefinition']);
    for (const def of RESOURCES) {
      if (jsonOnly.has(`${apiVersionOf(def)}/${def.kind}`)) continue;
      expect(known, def.kind).toContain(`${apiVersionOf(def)}/${def.kind}`);
      expect(known, def.kind).toContain(`${apiVersionOf(def)}/${def.kind}List`);
    }
  });

  // Identity: for objects in the JSON form Go prints (the canonical form), decode(encode(x)) = x.
  it.each(KINDS.map((k) => [`${k.apiVersion} ${k.kind}`, k] as const))(
    '%s: JSON → protobuf → JSON is the identity on the canonical form',
    (_, k) => {
      fc.assert(
        fc.property(kubeObjectArb(k.apiVersion, k.kind, k.message, 'canonical'), (x) => {
          expect(decodeObject(encodeObject(x))).toEqual(x);
        }),
        { numRuns: RUNS },
      );
    },
  );

  // Normalisation: any JSON a client sends reaches the canonical form in one round trip, and stays.
  it.each(KINDS.map((k) => [`${k.apiVersion} ${k.kind}`, k] as const))(
    '%s: one round trip normalises any JSON to a fixed point',
    (_, k) => {
      fc.assert(
        fc.property(kubeObjectArb(k.apiVersion, k.kind, k.message, 'loose'), (x) => {
          const once = decodeObject(encodeObject(x));
          expect(decodeObject(encodeObject(once))).toEqual(once);
          expect(once.kind).toBe(k.kind);
          expect(once.apiVersion).toBe(k.apiVersion);
        }),
        { numRuns: RUNS },
      );
    },
  );
});
