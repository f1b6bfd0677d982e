// Properties of every built-in validator: any JSON body gives causes (never a throw), each naming a field with upstream's type.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../../operators/types.ts';
import { BUILTIN_VALIDATORS } from '../../../../../src/apiserver/builtin/builtin-validation.ts';

const VALIDATORS = BUILTIN_VALIDATORS;
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
  'minAvailable',
  'maxUnavailable',
  'value',
  'preemptionPolicy',
  'provisioner',
  'reclaimPolicy',
  'allowedTopologies',
  'leaseDurationSeconds',
  'metrics',
  'behavior',
  'hard',
  'scopes',
  'limits',
  'endpoints',
  'addresses',
  'addressType',
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

describe('every built-in validator', () => {
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
