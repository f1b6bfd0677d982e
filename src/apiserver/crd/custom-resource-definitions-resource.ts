// The resource-table row of apiextensions.k8s.io/v1 customresourcedefinitions.
import type { ResourceDef } from '../resource-table.ts';
import {
  CLEANUP_FINALIZER,
  type CustomResourceDefinition,
  defaultCustomResourceDefinition,
  storageVersionOf,
} from './custom-resource-definition.ts';
import { validateCustomResourceDefinition } from './validate-custom-resource-definition.ts';

/**
 * customresourcedefinitions (`crd`, `crds`; category api-extensions), cluster-scoped, with a status
 * subresource. A new CRD gets generation 1, `status.storedVersions` = its storage version and the
 * `customresourcecleanup.apiextensions.k8s.io` finalizer, so deleting it first deletes its objects
 * (the CRD controller does that and removes the finalizer).
 */
export const CUSTOM_RESOURCE_DEFINITIONS: ResourceDef = {
  group: 'apiextensions.k8s.io',
  version: 'v1',
  resource: 'customresourcedefinitions',
  singular: 'customresourcedefinition',
  kind: 'CustomResourceDefinition',
  namespaced: false,
  subresources: ['status'],
  shortNames: ['crd', 'crds'],
  categories: ['api-extensions'],
  nameRule: 'subdomain',
  required: [],
  fieldSelectors: [],
  columns: [
    {
      name: 'Created At',
      type: 'date',
      description:
        'CreationTimestamp is a timestamp representing the server time when this object was created.',
      priority: 0,
      cell: (o) => o.metadata?.creationTimestamp ?? null,
    },
  ],
  agePosition: 'none',
  defaults: (o) => {
    const crd = o as CustomResourceDefinition;
    const storage = storageVersionOf(crd);
    crd.status = { ...(storage ? { storedVersions: [storage] } : {}) };
    crd.metadata = { ...crd.metadata, generation: 1 };
    const finalizers = crd.metadata.finalizers ?? [];
    if (!finalizers.includes(CLEANUP_FINALIZER)) crd.metadata.finalizers = [...finalizers, CLEANUP_FINALIZER];
  },
  normalize: defaultCustomResourceDefinition,
  validate: validateCustomResourceDefinition,
};
