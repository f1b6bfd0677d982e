// Properties of the request/limit rule and of canonical quantities: a request passes exactly when it is at most its limit.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { quantityMilliValue } from '../../../../../operators/api/quantity.ts';
import { canonicalQuantity } from '../../../../../src/apiserver/builtin/validation/canonical-quantity.ts';
import { validateResourceRequirements } from '../../../../../src/apiserver/builtin/validation/resource-requirements-validation.ts';

/** A CPU or memory quantity in one of the spellings users write: "250m", "2", "0.5", "1Gi", "1500Mi", "3k". */
const quantity = fc.oneof(
  fc.integer({ min: 0, max: 64_000 }).map((n) => `${n}m`),
  fc.integer({ min: 0, max: 64 }).map(String),
  fc.integer({ min: 0, max: 64 }).map((n) => `${n}.5`),
  fc.integer({ min: 0, max: 8 }).map((n) => `${n}Gi`),
  fc.integer({ min: 0, max: 8192 }).map((n) => `${n}Mi`),
  fc.integer({ min: 0, max: 9 }).map((n) => `${n}k`),
);

describe('request ≤ limit', () => {
  it('a standard resource passes exactly when its request is at most its limit, else one cause names the requests', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('cpu', 'memory', 'ephemeral-storage'),
        quantity,
        quantity,
        (name, request, limit) => {
          const causes = validateResourceRequirements(
            { requests: { [name]: request }, limits: { [name]: limit } },
            'r',
          );
          if (quantityMilliValue(request) <= quantityMilliValue(limit)) expect(causes).toEqual([]);
          else
            expect(causes).toEqual([
              {
                type: 'FieldValueInvalid',
                field: 'r.requests',
                message: `Invalid value: "${canonicalQuantity(request)}": must be less than or equal to ${name} limit of ${canonicalQuantity(limit)}`,
              },
            ]);
        },
      ),
    );
  });
});

describe('canonicalQuantity', () => {
  it('names the same amount as the quantity it prints', () => {
    fc.assert(
      fc.property(quantity, (q) => {
        expect(quantityMilliValue(canonicalQuantity(q))).toBe(quantityMilliValue(q));
      }),
    );
  });

  it('is a fixed point: printing a canonical quantity again changes nothing', () => {
    fc.assert(
      fc.property(quantity, (q) => {
        const once = canonicalQuantity(q);
        expect(canonicalQuantity(once)).toBe(once);
      }),
    );
  });
});
