// Properties of protobuf watch framing: any sequence of events, cut into chunks anywhere, reads back whole.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeWatchFrame } from '../../../../src/apiserver/protobuf/watch-frame.ts';
import { WatchFrameDecoder } from '../../../../src/apiserver/protobuf/watch-frame-decoder.ts';
import { kubeObjectArb } from './arb-kube-json.ts';

const eventArb = fc.record({
  type: fc.constantFrom('ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK'),
  object: fc.oneof(
    kubeObjectArb('v1', 'ConfigMap', 'core/v1.ConfigMap', 'canonical', 2),
    kubeObjectArb('v1', 'Pod', 'core/v1.Pod', 'canonical', 2),
    kubeObjectArb('apps/v1', 'Deployment', 'apps/v1.Deployment', 'canonical', 2),
  ),
});
const errorArb = kubeObjectArb('v1', 'Status', 'meta/v1.Status', 'canonical', 2).map((object) => ({
  type: 'ERROR',
  object,
}));

function concat(parts: Uint8Array[]): Uint8Array {
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  return all;
}

describe('protobuf watch frames', () => {
  it('round-trips any sequence of events at any chunking', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof({ weight: 5, arbitrary: eventArb }, { weight: 1, arbitrary: errorArb }), {
          maxLength: 6,
        }),
        fc.array(fc.nat(), { maxLength: 12 }),
        (events, cuts) => {
          const stream = concat(events.map((e) => encodeWatchFrame(e.type, e.object)));
          const points = [...new Set(cuts.map((c) => (stream.length ? c % (stream.length + 1) : 0)))].sort(
            (a, b) => a - b,
          );
          const decoder = new WatchFrameDecoder();
          const out = [];
          let from = 0;
          for (const p of [...points, stream.length]) {
            out.push(...decoder.push(stream.subarray(from, p)));
            from = p;
          }
          decoder.finish();
          expect(out).toEqual(events);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('delivers a frame only once its last byte arrives, one byte at a time', () => {
    const frame = encodeWatchFrame('ADDED', { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'a' } });
    const decoder = new WatchFrameDecoder();
    for (let i = 0; i < frame.length - 1; i++) expect(decoder.push(frame.subarray(i, i + 1))).toEqual([]);
    expect(() => decoder.finish()).toThrow(/ended \d+ bytes into a frame/);
    const [event] = decoder.push(frame.subarray(frame.length - 1));
    expect(event).toMatchObject({ type: 'ADDED', object: { kind: 'ConfigMap', metadata: { name: 'a' } } });
  });

  it('starts each frame with its payload length, big-endian, and the payload with k8s\\0', () => {
    const frame = encodeWatchFrame('DELETED', { kind: 'Pod', apiVersion: 'v1', metadata: { name: 'p' } });
    const length = new DataView(frame.buffer, frame.byteOffset).getUint32(0, false);
    expect(length).toBe(frame.length - 4);
    expect([...frame.subarray(4, 8)]).toEqual([0x6b, 0x38, 0x73, 0x00]);
  });

  it('refuses a frame length past the limit, naming it', () => {
    const decoder = new WatchFrameDecoder();
    expect(() => decoder.push(new Uint8Array([0xff, 0xff, 0xff, 0xff]))).toThrow(/frame length/);
  });
});
