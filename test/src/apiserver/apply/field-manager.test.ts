// FieldManager: kube-apiserver's managedFields bookkeeping and apply rules (fieldmanager package tests, our words).
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../operators/types.ts';
import { ApiStatusError } from '../../../../src/apiserver/api-status.ts';
import {
  checkFieldManager,
  decodeManagedFields,
  encodeManagedFields,
  FieldManager,
  LAST_APPLIED_ANNOTATION,
  type ManagedFieldsEntry,
  managerFromUserAgent,
} from '../../../../src/apiserver/apply/field-manager.ts';
import { writeOptions } from '../../../../src/apiserver/apply/write-options.ts';
import { RESOURCES, type ResourceDef } from '../../../../src/apiserver/resource-table.ts';

const def = (resource: string): ResourceDef => RESOURCES.find((d) => d.resource === resource)!;
const DEPLOYMENTS = def('deployments');
const CONFIGMAPS = def('configmaps');
const T0 = '2026-01-01T00:00:00Z';
const at = (s: number) => new Date(Date.parse(T0) + s * 1000).toISOString().replace('.000Z', 'Z');

function deployment(spec: Record<string, unknown>, extra: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'ns', ...extra },
    spec,
  };
}

function caught(f: () => unknown): ApiStatusError {
  try {
    f();
  } catch (error) {
    if (error instanceof ApiStatusError) return error;
    throw error;
  }
  throw new Error('expected an ApiStatusError');
}

const entries = (o: KubeObject) => (o.metadata?.managedFields ?? []) as ManagedFieldsEntry[];

describe('Update entries (create, update, patch)', () => {
  it('a create records the creator with operation Update and the FieldsV1 of what it set', () => {
    const fm = new FieldManager();
    const cm: KubeObject = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'c', labels: { a: 'b' } },
      data: { k: 'v' },
    };
    expect(fm.update({ def: CONFIGMAPS, manager: 'kubectl-create', time: T0 }, undefined, cm)).toEqual([
      {
        manager: 'kubectl-create',
        operation: 'Update',
        apiVersion: 'v1',
        time: T0,
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:data': { '.': {}, 'f:k': {} }, 'f:metadata': { 'f:labels': { '.': {}, 'f:a': {} } } },
      },
    ]);
  });

  it('never records name, namespace, uid, resourceVersion, generation, creationTimestamp, apiVersion or kind', () => {
    const fm = new FieldManager();
    const d = deployment(
      { replicas: 1 },
      { uid: 'u', resourceVersion: '5', generation: 1, creationTimestamp: T0 },
    );
    const [e] = fm.update({ def: DEPLOYMENTS, manager: 'm', time: T0 }, undefined, d)!;
    expect(e!.fieldsV1).toEqual({ 'f:spec': { 'f:replicas': {} } });
  });

  it('status of a kind with a status subresource is not owned through the object; /status owns only status', () => {
    const fm = new FieldManager();
    const d = { ...deployment({ replicas: 1 }), status: { replicas: 1 } };
    expect(fm.update({ def: DEPLOYMENTS, manager: 'm', time: T0 }, undefined, d)![0]!.fieldsV1).toEqual({
      'f:spec': { 'f:replicas': {} },
    });
    const live = { ...deployment({ replicas: 1 }), status: { replicas: 1 } };
    live.metadata!.managedFields = fm.update({ def: DEPLOYMENTS, manager: 'm', time: T0 }, undefined, live);
    const next = { ...live, status: { replicas: 2, readyReplicas: 2 } };
    const out = fm.update(
      { def: DEPLOYMENTS, manager: 'kube-controller-manager', subresource: 'status', time: T0 },
      live,
      next,
    )!;
    expect(out).toEqual([
      {
        manager: 'kube-controller-manager',
        operation: 'Update',
        apiVersion: 'apps/v1',
        time: T0,
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:status': { 'f:readyReplicas': {}, 'f:replicas': {} } },
        subresource: 'status',
      },
      {
        manager: 'm',
        operation: 'Update',
        apiVersion: 'apps/v1',
        time: T0,
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:spec': { 'f:replicas': {} } },
      },
    ]);
  });

  it('an update moves the changed fields to the updater and keeps its earlier fields', () => {
    const fm = new FieldManager();
    const created = deployment({ replicas: 1, paused: false });
    created.metadata!.managedFields = fm.update(
      { def: DEPLOYMENTS, manager: 'a', time: T0 },
      undefined,
      created,
    );
    const next = { ...created, spec: { replicas: 3, paused: false } };
    const out = fm.update({ def: DEPLOYMENTS, manager: 'b', time: at(1) }, created, next)!;
    expect(out.map((e) => [e.manager, e.fieldsV1])).toEqual([
      ['a', { 'f:spec': { 'f:paused': {} } }],
      ['b', { 'f:spec': { 'f:replicas': {} } }],
    ]);
  });

  it('an update that changes nothing keeps the entries and their times', () => {
    const fm = new FieldManager();
    const created = deployment({ replicas: 1 });
    created.metadata!.managedFields = fm.update(
      { def: DEPLOYMENTS, manager: 'a', time: T0 },
      undefined,
      created,
    );
    expect(
      fm.update({ def: DEPLOYMENTS, manager: 'b', time: at(9) }, created, structuredClone(created)),
    ).toEqual(created.metadata!.managedFields);
  });

  it('removed fields leave every entry', () => {
    const fm = new FieldManager();
    const created = deployment({ replicas: 1, paused: true });
    created.metadata!.managedFields = fm.update(
      { def: DEPLOYMENTS, manager: 'a', time: T0 },
      undefined,
      created,
    );
    const next = { ...created, spec: { replicas: 1 } };
    expect(
      fm
        .update({ def: DEPLOYMENTS, manager: 'b', time: at(1) }, created, next)!
        .map((e) => [e.manager, e.fieldsV1]),
    ).toEqual([['a', { 'f:spec': { 'f:replicas': {} } }]]);
  });

  it.each([
    ['an empty list', []],
    ['a list of one empty entry', [{}]],
  ])('managedFields sent as %s resets them', (_name, sent) => {
    const fm = new FieldManager();
    const live = deployment({ replicas: 1 });
    live.metadata!.managedFields = fm.update({ def: DEPLOYMENTS, manager: 'a', time: T0 }, undefined, live);
    const next = {
      ...structuredClone(live),
      metadata: { ...live.metadata, managedFields: sent },
    } as KubeObject;
    expect(fm.update({ def: DEPLOYMENTS, manager: 'b', time: at(1) }, live, next)).toEqual([]);
  });

  it('managedFields sent with an update replace the live ones; garbage keeps the live ones', () => {
    const fm = new FieldManager();
    const live = deployment({ replicas: 1 });
    live.metadata!.managedFields = fm.update({ def: DEPLOYMENTS, manager: 'a', time: T0 }, undefined, live);
    const mine: ManagedFieldsEntry[] = [
      {
        manager: 'z',
        operation: 'Apply',
        apiVersion: 'apps/v1',
        time: T0,
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:spec': { 'f:replicas': {} } },
      },
    ];
    const sent = {
      ...structuredClone(live),
      metadata: { ...live.metadata, managedFields: mine },
    } as KubeObject;
    expect(fm.update({ def: DEPLOYMENTS, manager: 'b', time: at(1) }, live, sent)).toEqual(mine);
    const garbage = {
      ...structuredClone(live),
      metadata: { ...live.metadata, managedFields: [{ manager: 'x', fieldsType: 'FieldsV2' }] },
    };
    expect(fm.update({ def: DEPLOYMENTS, manager: 'b', time: at(1) }, live, garbage as KubeObject)).toEqual(
      live.metadata!.managedFields,
    );
  });

  it('keeps at most ten Update entries, folding the oldest into "ancient-changes"', () => {
    const fm = new FieldManager();
    let live = deployment({ paused: true });
    live.metadata!.managedFields = fm.update(
      { def: DEPLOYMENTS, manager: 'creator', time: T0 },
      undefined,
      live,
    );
    for (let i = 0; i < 12; i++) {
      const next = {
        ...structuredClone(live),
        metadata: { ...live.metadata, labels: { ...live.metadata?.labels, [`l${i}`]: 'x' } },
      };
      next.metadata.managedFields = fm.update(
        { def: DEPLOYMENTS, manager: `m${i}`, time: at(i) },
        live,
        next as KubeObject,
      );
      live = next as KubeObject;
    }
    const out = entries(live);
    expect(out).toHaveLength(10);
    // "creator" (the oldest, at T0 like m0) was folded first; the bucket took its paused field too.
    expect(out[0]).toMatchObject({
      manager: 'ancient-changes',
      operation: 'Update',
      apiVersion: 'apps/v1',
      time: at(2),
    });
    expect(out[0]!.fieldsV1).toEqual({
      'f:metadata': { 'f:labels': { '.': {}, 'f:l0': {}, 'f:l1': {}, 'f:l2': {} } },
      'f:spec': { 'f:paused': {} },
    });
    expect(out.slice(1).map((e) => e.manager)).toEqual([
      'm3',
      'm4',
      'm5',
      'm6',
      'm7',
      'm8',
      'm9',
      'm10',
      'm11',
    ]);
  });
});

describe('apply', () => {
  const w = (manager: string, time = T0) => ({ def: DEPLOYMENTS, manager, time });

  it('creates: the applier owns exactly what it applied; entries are Apply with the apiVersion', () => {
    const fm = new FieldManager();
    const out = fm.apply(
      w('kubectl'),
      undefined,
      deployment({
        replicas: 2,
        template: { spec: { containers: [{ name: 'c', image: 'i', ports: [{ containerPort: 80 }] }] } },
      }),
      false,
    );
    expect(out.changed).toBe(true);
    expect(entries(out.object)).toEqual([
      {
        manager: 'kubectl',
        operation: 'Apply',
        apiVersion: 'apps/v1',
        time: T0,
        fieldsType: 'FieldsV1',
        fieldsV1: {
          'f:spec': {
            'f:replicas': {},
            'f:template': {
              'f:spec': {
                'f:containers': {
                  'k:{"name":"c"}': {
                    '.': {},
                    'f:image': {},
                    'f:name': {},
                    'f:ports': {
                      'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {} },
                    },
                  },
                },
              },
            },
          },
        },
      },
    ]);
  });

  it('a second apply of the same configuration changes nothing, timestamps included', () => {
    const fm = new FieldManager();
    const first = fm.apply(w('kubectl'), undefined, deployment({ replicas: 2 }), false).object;
    const again = fm.apply(w('kubectl', at(5)), first, deployment({ replicas: 2 }), false);
    expect(again.changed).toBe(false);
    expect(entries(again.object)).toEqual(entries(first));
  });

  it('merges containers by name, ports by containerPort and protocol, env by name, args atomically', () => {
    const fm = new FieldManager();
    const live = fm.apply(
      w('a'),
      undefined,
      deployment({
        template: {
          spec: {
            containers: [{ name: 'x', image: '1', args: ['p', 'q'], env: [{ name: 'A', value: '1' }] }],
          },
        },
      }),
      false,
    ).object;
    const out = fm.apply(
      w('b'),
      live,
      deployment({
        template: {
          spec: {
            containers: [
              { name: 'y', image: '2' },
              {
                name: 'x',
                env: [{ name: 'B', value: '2' }],
                ports: [{ containerPort: 53, protocol: 'UDP' }],
              },
            ],
          },
        },
      }),
      false,
    ).object;
    expect((out.spec as { template: { spec: unknown } }).template.spec).toEqual({
      containers: [
        { name: 'y', image: '2' },
        {
          name: 'x',
          image: '1',
          args: ['p', 'q'],
          env: [
            { name: 'A', value: '1' },
            { name: 'B', value: '2' },
          ],
          ports: [{ containerPort: 53, protocol: 'UDP' }],
        },
      ],
    });
  });

  it('answers a conflict with 409 naming each field and manager as kube-apiserver', () => {
    const fm = new FieldManager();
    let live = deployment({ replicas: 1, paused: false });
    live.metadata!.managedFields = fm.update(
      { def: DEPLOYMENTS, manager: 'kubectl-client-side-apply', time: T0 },
      undefined,
      live,
    );
    live = fm.apply(w('other'), live, deployment({}, { labels: { app: 'x' } }), false).object;
    const one = caught(() => fm.apply(w('kubectl'), live, deployment({ replicas: 3 }), false));
    expect(one.statusCode).toBe(409);
    expect(one.status.reason).toBe('Conflict');
    expect(one.status.message).toBe(
      'Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using apps/v1: .spec.replicas',
    );
    expect(one.status.details?.causes).toEqual([
      {
        reason: 'FieldManagerConflict',
        message: 'conflict with "kubectl-client-side-apply" using apps/v1',
        field: '.spec.replicas',
      },
    ]);
    const many = caught(() =>
      fm.apply(
        w('kubectl'),
        live,
        deployment({ replicas: 3, paused: true }, { labels: { app: 'y' } }),
        false,
      ),
    );
    expect(many.status.message).toBe(
      'Apply failed with 3 conflicts: conflicts with "kubectl-client-side-apply" using apps/v1:\n- .spec.paused\n- .spec.replicas\nconflicts with "other":\n- .metadata.labels.app',
    );
  });

  it('force takes the fields; the previous owner keeps the rest', () => {
    const fm = new FieldManager();
    const live = deployment({ replicas: 1, paused: false });
    live.metadata!.managedFields = fm.update(
      { def: DEPLOYMENTS, manager: 'edit', time: T0 },
      undefined,
      live,
    );
    const out = fm.apply(w('kubectl'), live, deployment({ replicas: 3 }), true).object;
    expect(out.spec).toEqual({ replicas: 3, paused: false });
    expect(entries(out).map((e) => [e.manager, e.operation, e.fieldsV1])).toEqual([
      ['kubectl', 'Apply', { 'f:spec': { 'f:replicas': {} } }],
      ['edit', 'Update', { 'f:spec': { 'f:paused': {} } }],
    ]);
  });

  it('the first apply by "kubectl" adopts fields its last-applied annotation still matches', () => {
    const fm = new FieldManager();
    const lastApplied = JSON.stringify(deployment({ replicas: 1 }));
    const live = deployment(
      { replicas: 1, paused: false },
      { annotations: { [LAST_APPLIED_ANNOTATION]: lastApplied } },
    );
    live.metadata!.managedFields = fm.update(
      { def: DEPLOYMENTS, manager: 'kubectl-client-side-apply', time: T0 },
      undefined,
      live,
    );
    const out = fm.apply(w('kubectl'), live, deployment({ replicas: 2 }), false).object;
    expect(out.spec).toEqual({ replicas: 2, paused: false });
    const annotation = JSON.parse(out.metadata!.annotations![LAST_APPLIED_ANNOTATION]!) as KubeObject;
    expect(annotation.spec).toEqual({ replicas: 2 });
    // Another manager name gets the conflict, and so does a field the annotation does not cover.
    expect(caught(() => fm.apply(w('helm'), live, deployment({ replicas: 2 }), false)).statusCode).toBe(409);
    expect(
      caught(() => fm.apply(w('kubectl'), live, deployment({ paused: true }), false)).status.message,
    ).toBe(
      'Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using apps/v1: .spec.paused',
    );
  });

  it.each([
    [
      { apiVersion: 'apps/v1beta1', kind: 'Deployment' },
      400,
      'Incorrect version specified in apply patch. Specified patch version: apps/v1beta1, expected: apps/v1',
    ],
    [
      { kind: 'Deployment' },
      400,
      'Incorrect version specified in apply patch. Specified patch version: , expected: apps/v1',
    ],
    [
      { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { managedFields: [] } },
      400,
      'metadata.managedFields must be nil',
    ],
    [
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'web' },
        spec: { template: { spec: { containers: [{ image: 'x' }] } } },
      },
      500,
      'failed to create typed patch object (web; apps/v1, Kind=Deployment): .spec.template.spec.containers: element 0: associative list with keys has an element that omits key field "name" (and doesn\'t have default value)',
    ],
    [
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'web' },
        spec: { template: { spec: { containers: [{ name: 'a' }, { name: 'a' }] } } },
      },
      500,
      'failed to create typed patch object (web; apps/v1, Kind=Deployment): .spec.template.spec.containers: duplicate entries for key [name="a"]',
    ],
  ])('refuses %j with %i: %s', (config, code, message) => {
    const e = caught(() => new FieldManager().apply(w('m'), undefined, config, false));
    expect([e.statusCode, e.status.message]).toEqual([code, message]);
  });
});

describe('upstream fieldmanager cases', () => {
  const w = (manager: string, time = T0) => ({ def: DEPLOYMENTS, manager, time });
  const PODS = def('pods');
  const labelled = (): KubeObject => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', labels: { a: 'b' } },
  });

  it('an apply over fields an update set conflicts', () => {
    const fm = new FieldManager();
    const created = deployment(
      { replicas: 3, selector: { matchLabels: { app: 'nginx' } } },
      { labels: { app: 'nginx' } },
    );
    created.metadata!.managedFields = fm.update(w('fieldmanager_test'), undefined, created);
    expect(
      caught(() => fm.apply(w('fieldmanager_conflict'), created, deployment({ replicas: 101 }), false))
        .statusCode,
    ).toBe(409);
  });

  it('an update that sets only server-owned metadata records nobody', () => {
    const fm = new FieldManager();
    const obj = deployment({}, { uid: 'b', resourceVersion: 'b', generation: 0, creationTimestamp: T0 });
    obj.metadata!.managedFields = [{ manager: 'update', operation: 'Apply', apiVersion: 'apps/v1' }];
    delete obj.spec;
    expect(fm.update(w('fieldmanager_test'), undefined, obj)).toEqual([]);
  });

  it('an apply of labels only is recorded', () => {
    const fm = new FieldManager();
    const out = fm.apply(
      { def: PODS, manager: 'fieldmanager_test', time: T0 },
      undefined,
      labelled(),
      false,
    ).object;
    expect(entries(out)).toHaveLength(1);
  });

  it('a second manager applying the same values adds its entry; a no-op update or re-apply changes nothing', () => {
    const fm = new FieldManager();
    const pw = (manager: string, s: number) => ({ def: PODS, manager, time: at(s) });
    const first = fm.apply(pw('fieldmanager_test_apply', 0), undefined, labelled(), false).object;
    const second = fm.apply(pw('fieldmanager_test_apply_other', 1), first, labelled(), false);
    expect(second.changed).toBe(true);
    expect(entries(second.object).map((e) => e.manager)).toEqual([
      'fieldmanager_test_apply',
      'fieldmanager_test_apply_other',
    ]);
    const next = {
      ...labelled(),
      metadata: { ...labelled().metadata, managedFields: second.object.metadata!.managedFields },
    };
    expect(fm.update(pw('fieldmanager_test_update', 2), second.object, next)).toEqual(
      second.object.metadata!.managedFields,
    );
    const again = fm.apply(pw('fieldmanager_test_apply', 3), second.object, labelled(), true);
    expect(again.changed).toBe(false);
    expect(again.object).toEqual(second.object);
  });

  it('managedFields: [] stops tracking: later updates record nobody, the next apply starts again with "before-first-apply"', () => {
    const fm = new FieldManager();
    let live = deployment({ replicas: 100 }, { labels: { app: 'my-app' }, uid: 'u' });
    live.metadata!.managedFields = fm.update(w('test_kubectl_create'), undefined, live);
    expect(entries(live)).toHaveLength(1);
    const reset = {
      ...structuredClone(live),
      metadata: { ...live.metadata, managedFields: [] },
    } as KubeObject;
    live = {
      ...reset,
      metadata: { ...reset.metadata, managedFields: fm.update(w('test_kubectl_replace'), live, reset) },
    };
    expect(entries(live)).toHaveLength(0);
    const edited = deployment({ replicas: 100 }, { labels: { app: 'my-app', x: 'y' }, uid: 'u' });
    expect(fm.update(w('test_k_client_side_apply'), live, edited)).toEqual([]);
    live = edited;
    const applied = fm.apply(
      w('test_server_side_apply_without_upgrade', at(1)),
      live,
      deployment({ replicas: 100 }),
      false,
    ).object;
    expect(entries(applied).map((e) => [e.manager, e.operation])).toEqual([
      ['test_server_side_apply_without_upgrade', 'Apply'],
      ['before-first-apply', 'Update'],
    ]);
    // The values "before-first-apply" holds conflict like any other manager's.
    expect(
      caught(() => fm.apply(w('someone'), applied, deployment({}, { labels: { x: 'z' } }), false)).status
        .message,
    ).toBe(
      'Apply failed with 1 conflict: conflict with "before-first-apply" using apps/v1: .metadata.labels.x',
    );
  });

  it('an invalid last-applied annotation adopts nothing: conflict, and force rewrites the annotation', () => {
    const fm = new FieldManager();
    const live = deployment(
      { replicas: 1 },
      { labels: { app: 'my-app-v1' }, annotations: { [LAST_APPLIED_ANNOTATION]: 'invalid-object' } },
    );
    live.metadata!.managedFields = fm.update(w('kubectl-client-side-apply-test'), undefined, live);
    const config = deployment({ replicas: 100 }, { labels: { app: 'my-app-v2' } });
    expect(caught(() => fm.apply(w('kubectl'), live, config, false)).statusCode).toBe(409);
    const forced = fm.apply(w('kubectl'), live, config, true).object;
    expect(forced.metadata!.annotations![LAST_APPLIED_ANNOTATION]).toContain('my-app-v2');
  });

  it('client-side apply then server-side apply by kubectl changes every field without conflicts', () => {
    const fm = new FieldManager();
    const spec = (replicas: number, app: string, image: string) => ({
      replicas,
      selector: { matchLabels: { app } },
      template: { metadata: { labels: { app } }, spec: { containers: [{ name: 'my-c', image }] } },
    });
    const manifest = deployment(spec(100, 'my-app', 'my-image-v1'), { labels: { app: 'my-app' } });
    const live = deployment(spec(100, 'my-app', 'my-image-v1'), {
      labels: { app: 'my-app' },
      annotations: { [LAST_APPLIED_ANNOTATION]: JSON.stringify(manifest) },
    });
    live.metadata!.managedFields = fm.update(w('kubectl-client-side-apply-test'), undefined, live);
    const out = fm.apply(
      w('kubectl'),
      live,
      deployment(spec(8, 'my-app-v2', 'my-image-v2'), { labels: { app: 'my-app-v2' } }),
      false,
    ).object;
    expect(out.metadata!.annotations![LAST_APPLIED_ANNOTATION]).toContain('my-image-v2');
    expect((out.spec as { replicas: number }).replicas).toBe(8);
  });
});

describe('managedFields encoding', () => {
  it('sorts Apply before Update, then by time and manager', () => {
    const raw: ManagedFieldsEntry[] = [
      {
        manager: 'b',
        operation: 'Update',
        apiVersion: 'v1',
        time: at(2),
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:a': {} },
      },
      {
        manager: 'a',
        operation: 'Update',
        apiVersion: 'v1',
        time: at(2),
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:b': {} },
      },
      {
        manager: 'z',
        operation: 'Apply',
        apiVersion: 'v1',
        time: at(9),
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:c': {} },
      },
      {
        manager: 'c',
        operation: 'Update',
        apiVersion: 'v1',
        time: at(1),
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:d': {} },
      },
    ];
    expect(encodeManagedFields(decodeManagedFields(raw)).map((e) => e.manager)).toEqual(['z', 'c', 'a', 'b']);
  });

  it.each([
    [
      [{ operation: 'Update', fieldsType: 'FieldsV2' }],
      'metadata.managedFields[0].fieldsType: must be "FieldsV1", got "FieldsV2"',
    ],
    [
      [{ operation: 'Patch', fieldsType: 'FieldsV1' }],
      'metadata.managedFields[0].operation: must be "Apply" or "Update", got "Patch"',
    ],
    [
      [
        { manager: 'a', operation: 'Apply', fieldsType: 'FieldsV1' },
        { manager: 'a', operation: 'Apply', fieldsType: 'FieldsV1' },
      ],
      'metadata.managedFields[1]: duplicate entry for manager',
    ],
  ])('refuses %j naming the entry', (raw, message) => {
    expect(() => decodeManagedFields(raw)).toThrow(message);
  });
});

describe('field manager names', () => {
  it.each([
    ['kubectl/v1.32.4 (linux/amd64) kubernetes/abc', 'kubectl'],
    [
      'kube-controller-manager/v1.32.0 (linux/amd64) kubernetes/abc/system:serviceaccount:kube-system:deployment-controller',
      'kube-controller-manager',
    ],
    ['node', 'node'],
    [undefined, ''],
  ])('user agent %j gives %j', (ua, name) => {
    expect(managerFromUserAgent(ua)).toBe(name);
  });

  it.each([
    [
      'PATCH',
      'application/apply-patch+yaml',
      '',
      422,
      'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch',
    ],
    [
      'PATCH',
      'application/merge-patch+json',
      'force=true',
      422,
      'PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch',
    ],
    [
      'POST',
      'application/json',
      `fieldManager=${'x'.repeat(129)}`,
      422,
      'CreateOptions.meta.k8s.io "" is invalid: fieldManager: Too long: may not be more than 128 bytes',
    ],
    [
      'PUT',
      'application/json',
      'fieldManager=a%0Ab',
      422,
      'UpdateOptions.meta.k8s.io "" is invalid: fieldManager: Invalid value: "a\\nb": invalid character U+000A (at position 1)',
    ],
  ])('%s %s ?%s is refused with %i', (method, type, query, code, message) => {
    const e = caught(() => writeOptions(method, type, new URLSearchParams(query), 'kubectl/v1.32.4'));
    expect([e.statusCode, e.status.message]).toEqual([code, message]);
    expect(e.status.details).toMatchObject({ group: 'meta.k8s.io' });
  });

  it('takes fieldManager, else the user agent; force only on apply', () => {
    expect(
      writeOptions(
        'PATCH',
        'application/apply-patch+yaml',
        new URLSearchParams('fieldManager=me&force=true'),
        'x/1',
      ),
    ).toEqual({
      fieldManager: 'me',
      force: true,
    });
    expect(
      writeOptions('POST', 'application/json', new URLSearchParams(''), 'kubectl/v1.32.4 (linux/amd64)'),
    ).toEqual({
      fieldManager: 'kubectl',
    });
    expect(writeOptions('GET', '', new URLSearchParams('force=true'), undefined)).toEqual({});
    expect(() => checkFieldManager('CreateOptions', 'fine-name', false)).not.toThrow();
  });
});
