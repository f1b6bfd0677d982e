// certificatesigningrequests/approval: only the Approved and Denied conditions change, checked as upstream's CSR strategy does.
import type { KubeObject } from '../../../operators/types.ts';
import { invalid, type StatusCause } from '../api-status.ts';

type Obj = Record<string, unknown>;

const DECISIONS = new Set(['Approved', 'Denied']);

/**
 * The CSR after an approval update: the old object with the incoming Approved/Denied conditions
 * (other conditions kept as they were).
 * @throws 422 naming `status.conditions[i]` when a condition is malformed, or both decisions are present
 */
export function approveCertificateSigningRequest(old: KubeObject, incoming: KubeObject): KubeObject {
  const oldStatus = ((old.status as Obj | undefined) ?? {}) as Obj;
  const wanted = (((incoming.status as Obj | undefined)?.conditions as Obj[] | undefined) ?? []).filter((c) =>
    DECISIONS.has(String(c.type)),
  );
  const kept = ((oldStatus.conditions as Obj[] | undefined) ?? []).filter(
    (c) => !DECISIONS.has(String(c.type)),
  );
  const causes: StatusCause[] = [];
  wanted.forEach((c, i) => {
    if (c.status !== 'True')
      causes.push({
        type: 'FieldValueNotSupported',
        message: `Unsupported value: "${String(c.status)}": supported values: "True"`,
        field: `status.conditions[${i}].status`,
      });
  });
  const types = new Set(wanted.map((c) => String(c.type)));
  if (types.has('Approved') && types.has('Denied'))
    causes.push({
      type: 'FieldValueInvalid',
      message: 'Invalid value: "Approved": Approved and Denied conditions are mutually exclusive',
      field: 'status.conditions',
    });
  const oldTypes = new Set(((oldStatus.conditions as Obj[] | undefined) ?? []).map((c) => String(c.type)));
  for (const t of DECISIONS)
    if (oldTypes.has(t) && !types.has(t))
      causes.push({
        type: 'FieldValueForbidden',
        message: `Forbidden: updates may not remove a condition of type "${t}"`,
        field: 'status.conditions',
      });
  if (causes.length)
    throw invalid(
      { group: 'certificates.k8s.io', kind: 'CertificateSigningRequest', name: old.metadata?.name },
      causes,
    );
  return { ...old, status: { ...oldStatus, conditions: [...kept, ...wanted] } };
}
