// A protobuf request body turned into the JSON text the registry already handles.
import { InvalidInputError } from '../../../operators/errors.ts';
import { badRequest } from '../api-status.ts';
import { apiVersionOf, type ResourceDef } from '../resource-table.ts';
import { decodeObject, type KindDefault } from './object-codec.ts';

/** What a body without a typeMeta is taken as, from the request's verb and subresource. */
function kindDefault(def: ResourceDef, method: string, subresource: string | undefined): KindDefault {
  if (method === 'DELETE') return { apiVersion: 'meta.k8s.io/v1', kind: 'DeleteOptions' };
  if (subresource === 'scale') return { apiVersion: 'autoscaling/v1', kind: 'Scale' };
  if (subresource === 'binding') return { apiVersion: 'v1', kind: 'Binding' };
  return { apiVersion: apiVersionOf(def), kind: def.kind };
}

/**
 * Decodes a protobuf body (create, update, a subresource, DeleteOptions) into JSON text; a body
 * that does not decode is a 400 BadRequest naming the field.
 */
export function protobufBodyAsJson(
  bytes: Uint8Array,
  def: ResourceDef,
  method: string,
  subresource: string | undefined,
): string {
  if (bytes.length === 0) return '';
  try {
    const object = decodeObject(bytes, kindDefault(def, method, subresource));
    // Scale's replicas is a plain int32 with omitempty: Go reads an absent one as 0 (scale to zero),
    // while the registry reads JSON; say the zero out loud.
    if (object.kind === 'Scale' && object.spec !== null && typeof object.spec === 'object') {
      (object.spec as Record<string, unknown>).replicas ??= 0;
    }
    return JSON.stringify(object);
  } catch (error) {
    if (error instanceof InvalidInputError)
      throw badRequest(`the body of the request could not be decoded: ${error.message}`);
    throw error;
  }
}
