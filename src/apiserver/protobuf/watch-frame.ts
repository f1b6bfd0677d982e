// One protobuf watch frame: a 4-byte big-endian length, then an enveloped meta/v1 WatchEvent.
import { BinaryReader, BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import { InvalidInputError } from '../../../operators/errors.ts';
import { decodeEnvelope, encodeEnvelope } from './envelope.ts';
import { decodeObject, encodeObject } from './object-codec.ts';

/** A watch event as JSON: `{type, object}`, the same value the JSON watch stream carries per line. */
export interface WatchEventJson {
  type: string;
  object: Record<string, unknown>;
}

/**
 * Encodes one event as a frame. WatchEvent is {type = 1, object = 2}, object a RawExtension {raw = 1}
 * whose raw is itself an enveloped object (protobuf, not the JSON a RawExtension holds elsewhere, so
 * it is written here rather than through the table). The outer envelope carries no typeMeta, as
 * kube-apiserver's stream encoder writes it.
 */
export function encodeWatchFrame(type: string, object: unknown): Uint8Array {
  const event = new BinaryWriter();
  event.tag(1, WireType.LengthDelimited).string(type);
  event
    .tag(2, WireType.LengthDelimited)
    .fork()
    .tag(1, WireType.LengthDelimited)
    .bytes(encodeObject(object))
    .join();
  const payload = encodeEnvelope('', '', event.finish());
  const frame = new Uint8Array(4 + payload.length);
  new DataView(frame.buffer).setUint32(0, payload.length, false);
  frame.set(payload, 4);
  return frame;
}

function field(path: string, message: string): never {
  throw new InvalidInputError('protobuf watch frame', path, message);
}

/** Decodes a frame's payload (the bytes after the length) into `{type, object}`. */
export function decodeWatchPayload(payload: Uint8Array): WatchEventJson {
  const env = decodeEnvelope(payload);
  if (env.kind !== '' && env.kind !== 'WatchEvent')
    field('typeMeta.kind', `expected WatchEvent, got ${env.kind}`);
  let type = '';
  let raw: Uint8Array | undefined;
  try {
    const r = new BinaryReader(env.raw);
    while (r.pos < r.len) {
      const [no, wt] = r.tag();
      if (no === 1 && wt === WireType.LengthDelimited) type = new TextDecoder().decode(r.bytes());
      else if (no === 2 && wt === WireType.LengthDelimited) {
        const o = new BinaryReader(r.bytes());
        while (o.pos < o.len) {
          const [ono, owt] = o.tag();
          if (ono === 1 && owt === WireType.LengthDelimited) raw = o.bytes();
          else o.skip(owt, ono);
        }
      } else r.skip(wt, no);
    }
  } catch (error) {
    field('WatchEvent', error instanceof Error ? error.message : String(error));
  }
  if (raw === undefined) field('WatchEvent.object', 'missing');
  return { type, object: decodeObject(raw) };
}
