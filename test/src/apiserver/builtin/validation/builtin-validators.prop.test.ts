// Properties of every core, apps, batch and networking validator: any JSON body gives causes (never a throw), each naming a field with upstream's type.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../../operators/types.ts';
import { APPS_VALIDATORS } from '../../../../../src/apiserver/builtin/validation/apps-validation.ts';
import { BATCH_VALIDATORS } from '../../../../../src/apiserver/builtin/validation/batch-validation.ts';
import { CORE_VALIDATORS } from '../../../../../src/apiserver/builtin/validation/core-validation.ts';
import { NETWORKING_VALIDATORS } from '../../../../../src/apiserver/builtin/validation/networking-validation.ts';

const VALIDATORS = { ...CORE_VALIDATORS, ...APPS_VALIDATORS, ...BATCH_VALIDATORS, ...NETWORKING_VALIDATORS };
const TYPES = new Set([
  'FieldValueRequired',
  'FieldValueInvalid',
  'FieldValueNotSupported',
  'FieldValueDuplicate',
  'FieldValueForbidden',
  'FieldValueTooLong',
  'FieldValueTooMany',
  'FieldValueNotFound',
]);

/** JSON of any shape, with the keys the validators read appearing often enough to reach deep rules. */
const KEYS = [
  'spec',
  'template',
  'containers',
  'initContainers',
  'volumes',
  'ports',
  'env',
  'resources',
  'requests',
  'limits',
  'cpu',
  'selector',
  'strategy',
  'rollingUpdate',
  'maxSurge',
  'maxUnavailable',
  'jobTemplate',
  'schedule',
  'timeZone',
  'podFailurePolicy',
  'rules',
  'successPolicy',
  'data',
  'type',
  'taints',
  'name',
  'image',
  'livenessProbe',
  'httpGet',
  'port',
  'projected',
  'sources',
  'securityContext',
  'completionMode',
  'capacity',
  'accessModes',
  'hostPath',
  'nodeAffinity',
  'dataSource',
  'sysctls',
  'os',
  'appArmorProfile',
  'rules',
  'http',
  'paths',
  'backend',
  'service',
  'tls',
  'ingress',
  'from',
  'ipBlock',
  'except',
  'cidr',
  'controller',
  'parameters',
];
const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom(null, 0, -1, 1, 65536, '', 'x', '1%', '200%', 'Always', 'Indexed', 'TZ=UTC * * * * *'),
    fc.string(),
    fc.integer(),
    fc.boolean(),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.oneof(fc.constantFrom(...KEYS), fc.string()), tie('value'), { maxKeys: 4 }),
  ),
})).value;

describe('every core, apps, batch and networking validator', () => {
  it.each(Object.keys(VALIDATORS))('%s: any body, on create or update, gives well-formed causes', (id) => {
    const validate = VALIDATORS[id]!;
    fc.assert(
      fc.property(json, json, fc.boolean(), (body, oldBody, update) => {
        const object = {
          metadata: { name: 'o' },
          ...(typeof body === 'object' && body && !Array.isArray(body) ? body : { spec: body }),
        } as KubeObject;
        const old = { metadata: { name: 'o' }, spec: oldBody } as KubeObject;
        const causes = validate(object, update ? old : undefined);
        for (const c of causes) {
          expect(TYPES.has(c.type)).toBe(true);
          expect(typeof c.field).toBe('string');
          expect(c.message.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 200 },
    );
  });
});
