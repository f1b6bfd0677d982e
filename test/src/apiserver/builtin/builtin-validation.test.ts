// Validation of the built-in kinds through the registry: upstream's field paths and words on create and update.
import { describe, expect, it } from 'vitest';
import { refusal, registryFixture } from '../admission/registry-fixture.ts';

const RBAC = 'rbac.authorization.k8s.io';
const rb = (roleRef: object, subjects: object[] = []) => ({ metadata: { name: 'rb' }, roleRef, subjects });
const roleRef = { apiGroup: RBAC, kind: 'Role', name: 'r' };

type Cause = { field: string; message: string };
function causesOf(run: () => unknown): Cause[] {
  try {
    run();
    return [];
  } catch (error) {
    const details = (error as { status?: { details?: { causes?: Cause[] } } }).status?.details;
    return (details?.causes ?? []).map(({ field, message }) => ({ field, message }));
  }
}

describe('built-in kind validation', () => {
  it.each([
    [
      'a rule without verbs',
      `${RBAC}/roles`,
      'default',
      { metadata: { name: 'r' }, rules: [{ apiGroups: [''], resources: ['pods'] }] },
      [{ field: 'rules[0].verbs', message: 'Required value: verbs must contain at least one value' }],
    ],
    [
      'a resource rule without groups or resources',
      `${RBAC}/clusterroles`,
      undefined,
      { metadata: { name: 'r' }, rules: [{ verbs: ['get'] }] },
      [
        {
          field: 'rules[0].apiGroups',
          message: 'Required value: resource rules must supply at least one api group',
        },
        {
          field: 'rules[0].resources',
          message: 'Required value: resource rules must supply at least one resource',
        },
      ],
    ],
    [
      'non-resource URLs in a namespaced role',
      `${RBAC}/roles`,
      'default',
      { metadata: { name: 'r' }, rules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }] },
      [
        {
          field: 'rules[0].nonResourceURLs',
          message: 'Invalid value: ["/healthz"]: namespaced rules cannot apply to non-resource URLs',
        },
      ],
    ],
    [
      'a binding to an unknown kind',
      `${RBAC}/rolebindings`,
      'default',
      rb({ ...roleRef, kind: 'Thing' }),
      [
        {
          field: 'roleRef.kind',
          message: 'Unsupported value: "Thing": supported values: "Role", "ClusterRole"',
        },
      ],
    ],
    [
      'a cluster binding to a Role',
      `${RBAC}/clusterrolebindings`,
      undefined,
      rb(roleRef),
      [{ field: 'roleRef.kind', message: 'Unsupported value: "Role": supported values: "ClusterRole"' }],
    ],
    [
      'a cluster binding to a service account without namespace',
      `${RBAC}/clusterrolebindings`,
      undefined,
      rb({ ...roleRef, kind: 'ClusterRole' }, [{ kind: 'ServiceAccount', name: 'x' }]),
      [{ field: 'subjects[0].namespace', message: 'Required value' }],
    ],
    [
      'a subject of an unknown kind',
      `${RBAC}/rolebindings`,
      'default',
      rb(roleRef, [{ kind: 'Robot', name: 'x' }]),
      [
        {
          field: 'subjects[0].kind',
          message: 'Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"',
        },
      ],
    ],
    [
      'a claim without a storage request',
      'persistentvolumeclaims',
      'default',
      { metadata: { name: 'c' }, spec: { accessModes: ['ReadWriteOnce'] } },
      [{ field: 'spec.resources[storage]', message: 'Required value' }],
    ],
    [
      'an unknown access mode',
      'persistentvolumeclaims',
      'default',
      {
        metadata: { name: 'c' },
        spec: { accessModes: ['Everyone'], resources: { requests: { storage: '1Gi' } } },
      },
      [
        {
          field: 'spec.accessModes',
          message:
            'Unsupported value: "Everyone": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"',
        },
      ],
    ],
    [
      'maxReplicas under minReplicas',
      'autoscaling/horizontalpodautoscalers',
      'default',
      {
        metadata: { name: 'h' },
        spec: { scaleTargetRef: { kind: 'Deployment', name: 'w' }, minReplicas: 3, maxReplicas: 2 },
      },
      [
        {
          field: 'spec.maxReplicas',
          message: 'Invalid value: 2: must be greater than or equal to `minReplicas`',
        },
      ],
    ],
    [
      'a relative Prefix path',
      'networking.k8s.io/ingresses',
      'default',
      {
        metadata: { name: 'i' },
        spec: {
          rules: [
            {
              http: {
                paths: [
                  {
                    path: 'shop',
                    pathType: 'Prefix',
                    backend: { service: { name: 's', port: { number: 80 } } },
                  },
                ],
              },
            },
          ],
        },
      },
      [
        {
          field: 'spec.rules[0].http.paths[0].path',
          message: 'Invalid value: "shop": must be an absolute path',
        },
      ],
    ],
    [
      'an unknown reclaim policy',
      'storage.k8s.io/storageclasses',
      undefined,
      { metadata: { name: 's' }, provisioner: 'p', reclaimPolicy: 'Recycle' },
      [
        {
          field: 'reclaimPolicy',
          message: 'Unsupported value: "Recycle": supported values: "Delete", "Retain"',
        },
      ],
    ],
  ])('refuses %s', (_name, resource, namespace, object, causes) => {
    const { create } = registryFixture();
    expect(causesOf(() => create(resource, namespace, object))).toEqual(causes);
  });

  it.each([
    [
      'a binding roleRef',
      `${RBAC}/rolebindings`,
      'default',
      rb(roleRef),
      { roleRef: { ...roleRef, name: 'other' } },
      'roleRef',
      'cannot change roleRef',
    ],
    [
      'a priority class value',
      'scheduling.k8s.io/priorityclasses',
      undefined,
      { metadata: { name: 'p' }, value: 1 },
      { value: 2 },
      'value',
      'Forbidden: may not be changed in an update.',
    ],
    [
      'a storage class provisioner',
      'storage.k8s.io/storageclasses',
      undefined,
      { metadata: { name: 's' }, provisioner: 'a' },
      { provisioner: 'b' },
      'provisioner',
      'Forbidden: updates to provisioner are forbidden.',
    ],
    [
      'a runtime class handler',
      'node.k8s.io/runtimeclasses',
      undefined,
      { metadata: { name: 'r' }, handler: 'runc' },
      { handler: 'runsc' },
      'handler',
      'field is immutable',
    ],
  ])('refuses changing %s', (_name, resource, namespace, object, change, field, words) => {
    const { create, registry, def } = registryFixture();
    const created = create(resource, namespace, object);
    const name = String(created.metadata?.name);
    const causes = causesOf(() =>
      registry.update(def(resource), namespace, name, { ...created, ...change }, undefined),
    );
    expect(causes).toHaveLength(1);
    expect(causes[0]!.field).toBe(field);
    expect(causes[0]!.message).toContain(words);
  });

  it('accepts what kubectl create role and rolebinding send', () => {
    const { create } = registryFixture();
    create(`${RBAC}/roles`, 'default', {
      metadata: { name: 'r' },
      rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }],
    });
    expect(
      refusal(() =>
        create(
          `${RBAC}/rolebindings`,
          'default',
          rb(roleRef, [
            { kind: 'User', name: 'alice', apiGroup: RBAC },
            { kind: 'ServiceAccount', name: 'x', namespace: 'default' },
          ]),
        ),
      ),
    ).toBeUndefined();
  });
});
