// The API server's error Status objects: one error class carrying the HTTP code, reason and causes.
import { KubeRxError } from '../../operators/errors.ts';
import type { Status } from '../../operators/types.ts';

/**
 * A field-level cause of a refusal as the server's code builds it (`type` is Go's CauseType). On the wire,
 * in `details.causes`, metav1.StatusCause names that field `reason`; {@link ApiStatusError} renames it.
 */
export interface StatusCause {
  type: string;
  message: string;
  field: string;
}

/** The details an {@link ApiStatusError} is given: causes in the server's form. */
export type ErrorDetails = Omit<NonNullable<Status['details']>, 'causes'> & {
  causes?: { type: string; message?: string; field?: string }[];
};

/** What the error names: the resource's group and kind and the object's name. */
export interface StatusTarget {
  group?: string;
  kind?: string;
  name?: string;
}

/**
 * A request the API server refuses. `status` is the `meta/v1` Status body sent to the client;
 * `statusCode` the HTTP status. Thrown inside the server, turned into a response by the handler.
 */
export class ApiStatusError extends KubeRxError {
  readonly statusCode: number;
  readonly status: Status;
  constructor(statusCode: number, reason: string, message: string, details?: ErrorDetails) {
    super('KUBE_RX_APISERVER_STATUS', message);
    this.statusCode = statusCode;
    const { causes, ...rest } = details ?? {};
    this.status = failureStatus(
      statusCode,
      reason,
      message,
      details && {
        ...rest,
        ...(causes && { causes: causes.map(({ type, ...cause }) => ({ reason: type, ...cause })) }),
      },
    );
  }
}

/**
 * A `meta/v1` Status body for a refused request, its fields in the order of Go's metav1.Status.
 * @param code the HTTP status code
 * @param reason the StatusReason, e.g. `NotFound`
 * @param message the human-readable message
 * @param details what the error names, omitted when undefined
 * @returns the Status object
 */
export function failureStatus(
  code: number,
  reason: string,
  message: string,
  details?: Status['details'],
): Status {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason,
    ...(details ? { details } : {}),
    code,
  };
}

function qualified(target: StatusTarget, plural: string): string {
  return target.group ? `${plural}.${target.group}` : plural;
}

/** 404 NotFound: `pods "x" not found`. */
export function notFound(target: StatusTarget, plural: string): ApiStatusError {
  return new ApiStatusError(404, 'NotFound', `${qualified(target, plural)} "${target.name}" not found`, {
    name: target.name,
    group: target.group,
    kind: plural,
  });
}

/** 409 AlreadyExists. */
export function alreadyExists(target: StatusTarget, plural: string): ApiStatusError {
  return new ApiStatusError(
    409,
    'AlreadyExists',
    `${qualified(target, plural)} "${target.name}" already exists`,
    { name: target.name, group: target.group, kind: plural },
  );
}

/** 409 Conflict: an update or precondition lost a race. */
export function conflict(target: StatusTarget, plural: string, why: string): ApiStatusError {
  return new ApiStatusError(
    409,
    'Conflict',
    `Operation cannot be fulfilled on ${qualified(target, plural)} "${target.name}": ${why}`,
    { name: target.name, group: target.group, kind: plural },
  );
}

/** The message of a Conflict on a stale resourceVersion, as Kubernetes words it. */
export const STALE_OBJECT_MESSAGE =
  'the object has been modified; please apply your changes to the latest version and try again';

/** 422 Invalid with one cause per offending field. */
export function invalid(target: StatusTarget, causes: StatusCause[]): ApiStatusError {
  const summary = causes.map((c) => `${c.field}: ${c.message}`).join(', ');
  return new ApiStatusError(
    422,
    'Invalid',
    `${target.kind ?? 'Object'} "${target.name ?? ''}" is invalid: ${causes.length > 1 ? `[${summary}]` : summary}`,
    { name: target.name, group: target.group, kind: target.kind, causes },
  );
}

/** 400 BadRequest. */
export function badRequest(message: string): ApiStatusError {
  return new ApiStatusError(400, 'BadRequest', message);
}

/** 410 Expired: a resourceVersion or continue token older than the history kept. */
export function expired(message: string): ApiStatusError {
  return new ApiStatusError(410, 'Expired', message);
}

/** 413 RequestEntityTooLarge. */
export function tooLarge(limit: number): ApiStatusError {
  return new ApiStatusError(413, 'RequestEntityTooLarge', `Request entity too large: limit is ${limit}`);
}

/** 401 Unauthorized. */
export function unauthorized(): ApiStatusError {
  return new ApiStatusError(401, 'Unauthorized', 'Unauthorized');
}

/** 403 Forbidden. */
export function forbidden(message: string, target?: StatusTarget, plural?: string): ApiStatusError {
  return new ApiStatusError(
    403,
    'Forbidden',
    message,
    target ? { name: target.name, group: target.group, kind: plural } : undefined,
  );
}

/** 405 MethodNotAllowed. */
export function methodNotAllowed(verb: string, what: string): ApiStatusError {
  return new ApiStatusError(405, 'MethodNotAllowed', `${verb} is not supported on ${what}`);
}

/** 406 NotAcceptable. */
export function notAcceptable(accept: string): ApiStatusError {
  return new ApiStatusError(406, 'NotAcceptable', `only JSON is served, not ${JSON.stringify(accept)}`);
}

/** 415 UnsupportedMediaType. */
export function unsupportedMediaType(contentType: string): ApiStatusError {
  return new ApiStatusError(
    415,
    'UnsupportedMediaType',
    `the body of the request was in an unknown format: ${contentType}`,
  );
}

/** 504 Timeout used for a resourceVersion newer than the server's. */
export function tooLargeResourceVersion(requested: number, current: number): ApiStatusError {
  return new ApiStatusError(504, 'Timeout', `Too large resource version: ${requested}, current: ${current}`, {
    causes: [{ type: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
    retryAfterSeconds: 1,
  });
}

/** A 200 Success Status, as DELETE and binding answer with. */
export function success(details?: Status['details'], code = 200): Status {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Success',
    ...(details ? { details } : {}),
    code,
  };
}
