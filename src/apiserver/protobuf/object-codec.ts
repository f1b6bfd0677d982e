// A whole Kubernetes object (or list) ↔ its protobuf body: the envelope plus the kind's message.
import { InvalidInputError } from '../../../operators/errors.ts';
import { decodeEnvelope, encodeEnvelope } from './envelope.ts';
import { decodeMessage, encodeMessage } from './message-codec.ts';
import { protobufKind } from './protobuf-kinds.ts';

type Json = Record<string, unknown>;

/** The type an envelope without a typeMeta is taken as (client-go always sends one). */
export interface KindDefault {
  apiVersion: string;
  kind: string;
}

/** Whether objects of `apiVersion`/`kind` have a protobuf form. */
export function hasProtobufForm(apiVersion: string, kind: string): boolean {
  return protobufKind(apiVersion, kind) !== undefined;
}

/**
 * Encodes a JSON object carrying `apiVersion` and `kind` as a protobuf body. Throws when the kind
 * has no protobuf form (the caller negotiated protobuf for a kind that has one, so that is a bug).
 */
export function encodeObject(object: unknown): Uint8Array {
  const o = (object ?? {}) as Json;
  const apiVersion = typeof o.apiVersion === 'string' ? o.apiVersion : '';
  const kind = typeof o.kind === 'string' ? o.kind : '';
  const hit = protobufKind(apiVersion, kind);
  if (!hit) throw new Error(`no protobuf form for ${apiVersion || '(no apiVersion)'} ${kind || '(no kind)'}`);
  return encodeEnvelope(apiVersion, kind, encodeMessage(hit.message, o));
}

/** Encodes a list: `{kind: <Kind>List, apiVersion, metadata, items}` in the kind's List message. */
export function encodeList(
  apiVersion: string,
  kind: string,
  metadata: Json,
  items: readonly unknown[],
): Uint8Array {
  return encodeObject({ apiVersion, kind: `${kind}List`, metadata, items });
}

/**
 * Decodes a protobuf body into the JSON object Go's encoding would print for the same value, with
 * `kind` and `apiVersion` from the envelope (or `fallback` when it has none). Bad bodies throw
 * InvalidInputError naming the field.
 */
export function decodeObject(bytes: Uint8Array, fallback?: KindDefault): Json {
  const env = decodeEnvelope(bytes);
  const apiVersion = env.apiVersion || (env.kind ? '' : (fallback?.apiVersion ?? ''));
  const kind = env.kind || fallback?.kind || '';
  const hit = protobufKind(apiVersion, kind);
  if (!hit) {
    throw new InvalidInputError(
      'protobuf body',
      'typeMeta',
      `no protobuf form for apiVersion ${JSON.stringify(apiVersion)} kind ${JSON.stringify(kind)}`,
    );
  }
  const body = decodeMessage(hit.message, env.raw) as Json;
  return { kind, apiVersion, ...body };
}
