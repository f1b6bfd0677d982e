// Test fixture: a Widget CRD (namespaced, two versions, status and scale, printer columns) and a Gadget CRD (cluster-scoped).

/** widgets.example.com: v1 (storage) and v1beta1 served; defaults, enum, pattern, bounds; status and scale. */
export const WIDGET_CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.com' },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: {
      plural: 'widgets',
      singular: 'widget',
      kind: 'Widget',
      shortNames: ['wd'],
      categories: ['all', 'toys'],
    },
    versions: ['v1', 'v1beta1'].map((name) => ({
      name,
      served: true,
      storage: name === 'v1',
      deprecated: name === 'v1beta1',
      schema: {
        openAPIV3Schema: {
          type: 'object',
          properties: {
            spec: {
              type: 'object',
              required: ['size'],
              properties: {
                size: { type: 'string', enum: ['small', 'large'], description: 'How big the widget is.' },
                replicas: { type: 'integer', minimum: 0, maximum: 10, default: 1 },
                colour: { type: 'string', pattern: '^[a-z]+$', default: 'blue', maxLength: 10 },
                port: { 'x-kubernetes-int-or-string': true },
                tags: { type: 'array', maxItems: 3, items: { type: 'string' } },
                labels: { type: 'object', additionalProperties: { type: 'string' } },
                extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
                selector: { type: 'string' },
              },
            },
            status: {
              type: 'object',
              properties: {
                replicas: { type: 'integer' },
                phase: { type: 'string' },
                selector: { type: 'string' },
              },
            },
          },
        },
      },
      subresources: {
        status: {},
        scale: {
          specReplicasPath: '.spec.replicas',
          statusReplicasPath: '.status.replicas',
          labelSelectorPath: '.status.selector',
        },
      },
      additionalPrinterColumns: [
        { name: 'Size', type: 'string', jsonPath: '.spec.size' },
        { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
        { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
        { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
      ],
      selectableFields: [{ jsonPath: '.spec.size' }],
    })),
  },
};

/** gadgets.example.org: cluster-scoped, one version, no subresources, default columns. */
export const GADGET_CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'gadgets.example.org' },
  spec: {
    group: 'example.org',
    scope: 'Cluster',
    names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget' },
    versions: [
      {
        name: 'v1alpha1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: { spec: { type: 'object', properties: { power: { type: 'integer' } } } },
          },
        },
      },
    ],
  },
};
