// The protobuf codec's stated normalisations, its Go-shaped JSON, and its errors naming the field.
import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import { describe, expect, it } from 'vitest';
import { decodeEnvelope, encodeEnvelope } from '../../../../src/apiserver/protobuf/envelope.ts';
import {
  decodeMessage,
  encodeMessage,
  formatRfc3339,
  parseRfc3339,
} from '../../../../src/apiserver/protobuf/message-codec.ts';
import { decodeObject, encodeObject } from '../../../../src/apiserver/protobuf/object-codec.ts';

const roundTrip = (x: Record<string, unknown>) => decodeObject(encodeObject(x));

describe('protobuf message codec', () => {
  // Each normalisation the JSON → protobuf → JSON trip applies, as Kubernetes' JSON form implies it.
  it.each([
    [
      'an int64 sent as a string becomes a number',
      { metadata: { name: 'a', generation: '7' } },
      { metadata: { name: 'a', generation: 7, creationTimestamp: null } },
    ],
    [
      'a Time with an offset and a fraction becomes UTC seconds (metav1.Time keeps seconds only)',
      { metadata: { name: 'a', creationTimestamp: '2024-05-01T12:00:00.75+02:00' } },
      { metadata: { name: 'a', creationTimestamp: '2024-05-01T10:00:00Z' } },
    ],
    [
      'fields the schema does not know are dropped',
      { metadata: { name: 'a', bogus: 1 }, extra: true },
      { metadata: { name: 'a', creationTimestamp: null } },
    ],
    [
      'omitempty zeros are dropped and a null is unset',
      { metadata: { name: 'a', namespace: '', generation: 0, labels: null } },
      { metadata: { name: 'a', creationTimestamp: null } },
    ],
  ])('%s', (_, input, expected) => {
    const out = roundTrip({ kind: 'ConfigMap', apiVersion: 'v1', ...input });
    expect(out).toEqual({ kind: 'ConfigMap', apiVersion: 'v1', ...expected });
  });

  it('writes Go zero values for unset non-omitempty fields, as kubectl prints them', () => {
    const out = roundTrip({ kind: 'Pod', apiVersion: 'v1', metadata: { name: 'p' } });
    expect(out).toEqual({
      kind: 'Pod',
      apiVersion: 'v1',
      metadata: { name: 'p', creationTimestamp: null },
      spec: { containers: null },
      status: {},
    });
  });

  it('keeps a pointer field set to zero (replicas: 0) and drops an unset one', () => {
    const spec = {
      selector: { matchLabels: { a: 'b' } },
      template: { metadata: {}, spec: { containers: [] } },
    };
    const zero = roundTrip({
      kind: 'Deployment',
      apiVersion: 'apps/v1',
      metadata: {},
      spec: { ...spec, replicas: 0 },
    });
    expect((zero.spec as Record<string, unknown>).replicas).toBe(0);
    const unset = roundTrip({ kind: 'Deployment', apiVersion: 'apps/v1', metadata: {}, spec });
    expect(unset.spec).not.toHaveProperty('replicas');
  });

  it.each([
    ['a number', 8080, 8080],
    ['a name', 'http', 'http'],
  ])('IntOrString holds %s', (_, targetPort, expected) => {
    const out = roundTrip({
      kind: 'Service',
      apiVersion: 'v1',
      metadata: { name: 's' },
      spec: { ports: [{ port: 80, targetPort }] },
    });
    expect((out.spec as { ports: { targetPort: unknown }[] }).ports[0]!.targetPort).toBe(expected);
  });

  it('Quantity is its string (a number becomes one); Secret data is base64 on both sides', () => {
    const pod = roundTrip({
      kind: 'Pod',
      apiVersion: 'v1',
      metadata: { name: 'p' },
      spec: { containers: [{ name: 'c', resources: { limits: { cpu: 2, memory: '64Mi' } } }] },
    });
    const limits = (pod.spec as { containers: { resources: { limits: unknown } }[] }).containers[0]!.resources
      .limits;
    expect(limits).toEqual({ cpu: '2', memory: '64Mi' });
    const secret = roundTrip({
      kind: 'Secret',
      apiVersion: 'v1',
      metadata: { name: 's' },
      data: { k: 'cQ==' },
    });
    expect(secret.data).toEqual({ k: 'cQ==' });
  });

  it('MicroTime keeps microseconds', () => {
    const lease = roundTrip({
      kind: 'Lease',
      apiVersion: 'coordination.k8s.io/v1',
      metadata: { name: 'l' },
      spec: { renewTime: '2024-05-01T10:00:00.123456Z', holderIdentity: 'me' },
    });
    expect((lease.spec as Record<string, unknown>).renewTime).toBe('2024-05-01T10:00:00.123456Z');
  });

  it('a map key "__proto__" is data, not the prototype', () => {
    const cm = roundTrip({
      kind: 'ConfigMap',
      apiVersion: 'v1',
      metadata: { name: 'c' },
      data: JSON.parse('{"__proto__":"x"}'),
    });
    expect(Object.getPrototypeOf(cm.data)).toBe(Object.prototype);
    expect(Object.keys(cm.data as object)).toEqual(['__proto__']);
  });

  it.each([
    ['1970-01-01T00:00:00Z', 0],
    ['2024-02-29T23:59:59Z', 1709251199],
    ['0001-01-01T00:00:00Z', -62135596800],
    ['2024-01-01T01:00:00+01:00', 1704067200],
  ])('parses and formats RFC 3339 %s', (text, seconds) => {
    expect(parseRfc3339(text)?.seconds).toBe(seconds);
    expect(formatRfc3339(seconds)).toBe(text.endsWith('Z') ? text : '2024-01-01T00:00:00Z');
  });

  it('reads packed repeated numbers as well as unpacked ones', () => {
    const w = new BinaryWriter();
    w.tag(4, WireType.LengthDelimited).fork().int64(1).int64(2).int64(3).join();
    w.tag(4, WireType.Varint).int64(9);
    expect(decodeMessage('core/v1.PodSecurityContext', w.finish())).toMatchObject({
      supplementalGroups: [1, 2, 3, 9],
    });
  });
});

describe('protobuf errors name the input and the field', () => {
  it.each([
    ['no magic', new Uint8Array([1, 2, 3, 4]), /magic/],
    ['an unknown kind', encodeEnvelope('v1', 'Gadget', new Uint8Array()), /typeMeta.*Gadget/],
    [
      'a string field with a varint',
      encodeEnvelope(
        'v1',
        'ConfigMap',
        new BinaryWriter()
          .tag(1, WireType.LengthDelimited)
          .fork()
          .tag(1, WireType.Varint)
          .int32(5)
          .join()
          .finish(),
      ),
      /ConfigMap\.metadata\.name.*wire type/,
    ],
    ['a truncated body', encodeEnvelope('v1', 'ConfigMap', new Uint8Array()).subarray(0, 9), /protobuf body/],
  ])('%s', (_, bytes, message) => {
    expect(() => decodeObject(bytes)).toThrow(message);
  });

  it('an unsupported content encoding is refused by name', () => {
    const w = new BinaryWriter();
    w.raw(new Uint8Array([0x6b, 0x38, 0x73, 0x00]));
    w.tag(3, WireType.LengthDelimited).string('gzip');
    expect(() => decodeEnvelope(w.finish())).toThrow(/contentEncoding/);
  });

  it('the encoder leaves out values of the wrong shape instead of failing a response', () => {
    const bytes = encodeMessage('core/v1.ConfigMap', {
      metadata: { name: { not: 'a string' } },
      data: { a: 'b' },
    });
    expect(decodeMessage('core/v1.ConfigMap', bytes)).toEqual({
      metadata: { creationTimestamp: null },
      data: { a: 'b' },
    });
  });
});
