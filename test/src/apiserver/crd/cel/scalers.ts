// Test fixture: a Scaler CRD whose schema carries CEL rules (a bound between two fields, an immutable field, a status rule).

/** scalers.cel.example.com: namespaced, v1, a status subresource, x-kubernetes-validations on spec, spec.mode and status. */
export const SCALER_CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'scalers.cel.example.com' },
  spec: {
    group: 'cel.example.com',
    scope: 'Namespaced',
    names: { plural: 'scalers', singular: 'scaler', kind: 'Scaler' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        subresources: { status: {} },
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                'x-kubernetes-validations': [
                  {
                    rule: 'self.replicas <= self.maxReplicas',
                    message: 'replicas must not exceed maxReplicas',
                  },
                ],
                properties: {
                  replicas: { type: 'integer' },
                  maxReplicas: { type: 'integer' },
                  mode: {
                    type: 'string',
                    'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'mode is immutable' }],
                  },
                },
              },
              status: {
                type: 'object',
                'x-kubernetes-validations': [
                  {
                    rule: 'self.ready <= self.total',
                    messageExpression:
                      "'ready ' + string(self.ready) + ' is more than total ' + string(self.total)",
                    fieldPath: '.ready',
                  },
                ],
                properties: { ready: { type: 'integer' }, total: { type: 'integer' } },
              },
            },
          },
        },
      },
    ],
  },
};

/** A Scaler in namespace default. */
export const scaler = (name: string, spec: Record<string, unknown>) => ({
  apiVersion: 'cel.example.com/v1',
  kind: 'Scaler',
  metadata: { name, namespace: 'default' },
  spec,
});
