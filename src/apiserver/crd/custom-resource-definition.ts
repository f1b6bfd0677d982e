// The apiextensions.k8s.io/v1 CustomResourceDefinition object's shape, and its defaults.
import type { KubeObject } from '../../../operators/types.ts';
import { isJsonObject, type JSONSchemaProps } from './json-schema-props.ts';

/** `spec.names` and `status.acceptedNames`. */
export interface CrdNames {
  plural?: string;
  singular?: string;
  kind?: string;
  listKind?: string;
  shortNames?: string[];
  categories?: string[];
}

/** One printer column of a version. */
export interface CrdColumn {
  name?: string;
  type?: string;
  format?: string;
  description?: string;
  priority?: number;
  jsonPath?: string;
}

/** One entry of `spec.versions`. */
export interface CrdVersion {
  name?: string;
  served?: boolean;
  storage?: boolean;
  deprecated?: boolean;
  deprecationWarning?: string;
  schema?: { openAPIV3Schema?: JSONSchemaProps };
  subresources?: {
    status?: Record<string, never>;
    scale?: { specReplicasPath?: string; statusReplicasPath?: string; labelSelectorPath?: string };
  };
  additionalPrinterColumns?: CrdColumn[];
  selectableFields?: { jsonPath?: string }[];
}

/** One status condition. */
export interface CrdCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

/** A CustomResourceDefinition as stored. */
export interface CustomResourceDefinition extends KubeObject {
  spec: {
    group?: string;
    names?: CrdNames;
    scope?: string;
    versions?: CrdVersion[];
    conversion?: { strategy?: string; webhook?: unknown };
    preserveUnknownFields?: boolean;
  };
  status?: {
    conditions?: CrdCondition[];
    acceptedNames?: CrdNames;
    storedVersions?: string[];
  };
}

/** The finalizer that makes deleting a CRD delete its objects first. */
export const CLEANUP_FINALIZER = 'customresourcecleanup.apiextensions.k8s.io';

/**
 * The v1 defaults, applied in place to every CRD written: names.singular from the kind, listKind
 * `<Kind>List`, conversion strategy None, and for each version `served`/`storage` as booleans.
 */
export function defaultCustomResourceDefinition(object: KubeObject): void {
  const o = object as Record<string, unknown>;
  if (!isJsonObject(o.spec)) return;
  const spec = o.spec as CustomResourceDefinition['spec'];
  if (isJsonObject(spec.names) && (spec.names.kind === undefined || typeof spec.names.kind === 'string')) {
    const names = spec.names;
    if (!names.singular && typeof names.kind === 'string') names.singular = names.kind.toLowerCase();
    if (!names.listKind && typeof names.kind === 'string' && names.kind) names.listKind = `${names.kind}List`;
  }
  if (!isJsonObject(spec.conversion)) spec.conversion = { strategy: 'None' };
  else spec.conversion.strategy ??= 'None';
}

/** The version objects are stored in, or undefined when no version is marked `storage`. */
export function storageVersionOf(crd: CustomResourceDefinition): string | undefined {
  const versions = crd.spec?.versions;
  const found = Array.isArray(versions)
    ? versions.find((v) => isJsonObject(v) && v.storage === true)
    : undefined;
  return typeof found?.name === 'string' ? found.name : undefined;
}

/** The condition of the given type, or undefined. */
export function conditionOf(crd: CustomResourceDefinition, type: string): CrdCondition | undefined {
  return crd.status?.conditions?.find((c) => c.type === type);
}
