// validateCSIDriver: a storage.k8s.io/v1 CSIDriver as upstream's ValidateCSIDriver(Update) checks it (policies, token requests, lifecycle modes, immutable fields).
import type { KubeObject } from '../../../../operators/types.ts';
import type { StatusCause } from '../../api-status.ts';
import { fieldError } from './field-error.ts';
import { type Obj, shape } from './json-shape.ts';

const FS_GROUP_POLICIES = ['File', 'None', 'ReadWriteOnceWithFSType'];
const LIFECYCLE_MODES = ['Persistent', 'Ephemeral'];
const MIN_EXPIRATION = 600;
const MAX_EXPIRATION = 2 ** 32;

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
/** The v1 defaults of the fields compared on update. */
const attachRequired = (spec: Obj) => shape.defaulted(spec.attachRequired, true);
const lifecycleModes = (spec: Obj) =>
  Array.isArray(spec.volumeLifecycleModes) && spec.volumeLifecycleModes.length > 0
    ? spec.volumeLifecycleModes
    : ['Persistent'];

function tokenRequestCauses(requests: Obj[]): StatusCause[] {
  const out: StatusCause[] = [];
  const audiences = new Set<string>();
  requests.forEach((request, i) => {
    const at = `spec.tokenRequests[${i}]`;
    const audience = shape.text(request.audience);
    if (audiences.has(audience)) {
      out.push(fieldError.duplicate(`${at}.audience`, audience));
      return;
    }
    audiences.add(audience);
    const seconds = shape.num(request.expirationSeconds);
    if (seconds === undefined) return;
    if (seconds < MIN_EXPIRATION)
      out.push(
        fieldError.invalid(
          `${at}.expirationSeconds`,
          seconds,
          'may not specify a duration less than 10 minutes',
        ),
      );
    if (seconds > MAX_EXPIRATION)
      out.push(
        fieldError.invalid(
          `${at}.expirationSeconds`,
          seconds,
          'may not specify a duration larger than 2^32 seconds',
        ),
      );
  });
  return out;
}

/**
 * A CSIDriver: a known fsGroupPolicy, token requests with distinct audiences and lifetimes of 10
 * minutes to 2^32 seconds, Persistent or Ephemeral lifecycle modes, a node allocatable update period of
 * at least 10 seconds (the required booleans are defaulted). On update attachRequired (reported as
 * upstream spells it, `spec.attachedRequired`) and the lifecycle modes stay.
 * @param driver the CSIDriver about to be stored
 * @param old the stored one, on updates
 * @returns the causes, empty when valid
 */
export function validateCSIDriver(driver: KubeObject, old?: KubeObject): StatusCause[] {
  const spec = shape.obj((driver as Obj).spec);
  const out: StatusCause[] = [];
  const policy = spec.fsGroupPolicy;
  if (policy !== undefined && policy !== null && !FS_GROUP_POLICIES.includes(shape.text(policy)))
    out.push(fieldError.notSupported('spec.fsGroupPolicy', policy, FS_GROUP_POLICIES));
  out.push(...tokenRequestCauses(shape.list(spec.tokenRequests)));
  for (const mode of Array.isArray(spec.volumeLifecycleModes) ? spec.volumeLifecycleModes : [])
    if (!LIFECYCLE_MODES.includes(shape.text(mode)))
      out.push(fieldError.notSupported('spec.volumeLifecycleModes', mode, LIFECYCLE_MODES));
  const period = shape.num(spec.nodeAllocatableUpdatePeriodSeconds);
  if (period !== undefined && period < 10)
    out.push(
      fieldError.invalid(
        'spec.nodeAllocatableUpdatePeriodSeconds',
        period,
        'must be greater than or equal to 10 seconds',
      ),
    );
  if (old) {
    const before = shape.obj((old as Obj).spec);
    if (attachRequired(spec) !== attachRequired(before))
      out.push(fieldError.invalid('spec.attachedRequired', attachRequired(spec), 'field is immutable'));
    if (!same(lifecycleModes(spec), lifecycleModes(before)))
      out.push(
        fieldError.invalidPrinted(
          'spec.volumeLifecycleModes',
          `[]storage.VolumeLifecycleMode{${lifecycleModes(spec)
            .map((m: unknown) => JSON.stringify(shape.text(m)))
            .join(', ')}}`,
          'field is immutable',
        ),
      );
  }
  return out;
}
