// Kubernetes' protobuf envelope: the magic `k8s\0`, then a runtime.Unknown around the object's bytes.
import { BinaryReader, BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import { InvalidInputError } from '../../../operators/errors.ts';

/** The four bytes every Kubernetes protobuf body starts with. */
export const PROTOBUF_MAGIC = new Uint8Array([0x6b, 0x38, 0x73, 0x00]);

/** A decoded envelope: runtime.Unknown's typeMeta, raw, contentEncoding and contentType. */
export interface Envelope {
  apiVersion: string;
  kind: string;
  raw: Uint8Array;
  contentEncoding: string;
  contentType: string;
}

/** Wraps a message's bytes: `k8s\0` + Unknown{typeMeta{apiVersion=1, kind=2}=1, raw=2, 3, 4}. */
export function encodeEnvelope(apiVersion: string, kind: string, raw: Uint8Array): Uint8Array {
  const w = new BinaryWriter();
  w.raw(PROTOBUF_MAGIC);
  w.tag(1, WireType.LengthDelimited).fork();
  w.tag(1, WireType.LengthDelimited).string(apiVersion);
  w.tag(2, WireType.LengthDelimited).string(kind);
  w.join();
  w.tag(2, WireType.LengthDelimited).bytes(raw);
  w.tag(3, WireType.LengthDelimited).string('');
  w.tag(4, WireType.LengthDelimited).string('');
  return w.finish();
}

/** Whether `bytes` starts with the protobuf magic. */
export function hasProtobufMagic(bytes: Uint8Array): boolean {
  return PROTOBUF_MAGIC.every((b, i) => bytes[i] === b);
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Unwraps an envelope; throws InvalidInputError naming what is wrong (magic, field, encoding). */
export function decodeEnvelope(bytes: Uint8Array): Envelope {
  if (!hasProtobufMagic(bytes)) {
    throw new InvalidInputError('protobuf body', 'magic', 'does not start with the bytes k8s\\0');
  }
  const out: Envelope = {
    apiVersion: '',
    kind: '',
    raw: new Uint8Array(0),
    contentEncoding: '',
    contentType: '',
  };
  try {
    const r = new BinaryReader(bytes.subarray(PROTOBUF_MAGIC.length));
    while (r.pos < r.len) {
      const [no, wt] = r.tag();
      if (wt !== WireType.LengthDelimited || no < 1 || no > 4) {
        r.skip(wt, no);
        continue;
      }
      const b = r.bytes();
      if (no === 1) {
        const t = new BinaryReader(b);
        while (t.pos < t.len) {
          const [tno, twt] = t.tag();
          if (twt === WireType.LengthDelimited && tno === 1) out.apiVersion = utf8.decode(t.bytes());
          else if (twt === WireType.LengthDelimited && tno === 2) out.kind = utf8.decode(t.bytes());
          else t.skip(twt, tno);
        }
      } else if (no === 2) out.raw = b;
      else if (no === 3) out.contentEncoding = utf8.decode(b);
      else out.contentType = utf8.decode(b);
    }
  } catch (error) {
    throw new InvalidInputError(
      'protobuf body',
      'runtime.Unknown',
      error instanceof Error ? error.message : String(error),
    );
  }
  if (out.contentEncoding !== '') {
    throw new InvalidInputError(
      'protobuf body',
      'contentEncoding',
      `unsupported content encoding ${JSON.stringify(out.contentEncoding)}`,
    );
  }
  return out;
}
