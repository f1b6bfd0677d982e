// validateHandler: a probe's or lifecycle hook's action (exec, httpGet, tcpSocket, grpc, sleep), exactly one, each well formed.
import type { StatusCause } from '../../api-status.ts';
import { fieldError } from './field-error.ts';
import { formatErrors } from './format-rules.ts';
import { type Obj, shape } from './json-shape.ts';
import { validatePortNumOrName } from './port-num-or-name.ts';

const HTTP_HEADER_NAME = /^[-A-Za-z0-9]+$/;

type Action = (action: Obj, path: string, gracePeriod: number | undefined) => StatusCause[];

const ACTIONS: readonly (readonly [string, Action])[] = [
  ['exec', (a, path) => (shape.empty(a.command) ? [fieldError.required(`${path}.command`)] : [])],
  [
    'httpGet',
    (a, path) => {
      const out = validatePortNumOrName(a.port, `${path}.port`);
      const scheme = shape.defaulted(a.scheme, 'HTTP');
      if (scheme !== 'HTTP' && scheme !== 'HTTPS')
        out.push(fieldError.notSupported(`${path}.scheme`, a.scheme, ['HTTP', 'HTTPS']));
      for (const header of shape.list(a.httpHeaders)) {
        const name = shape.text(header.name ?? '');
        if (!HTTP_HEADER_NAME.test(name))
          out.push(
            fieldError.invalid(
              `${path}.httpHeaders`,
              name,
              "a valid HTTP header must consist of alphanumeric characters or '-' (e.g. 'X-Header-Name', regex used for validation is '[-A-Za-z0-9]+')",
            ),
          );
      }
      return out;
    },
  ],
  ['tcpSocket', (a, path) => validatePortNumOrName(a.port, `${path}.port`)],
  [
    'grpc',
    (a, path) =>
      formatErrors.portNumber(Number(a.port)).map((m) => fieldError.invalid(`${path}.port`, a.port ?? 0, m)),
  ],
  [
    'sleep',
    (a, path, grace) => {
      const seconds = shape.num(a.seconds) ?? 0;
      return grace !== undefined && (seconds <= 0 || seconds > grace)
        ? [
            fieldError.invalid(
              path,
              seconds,
              `must be greater than 0 and less than terminationGracePeriodSeconds (${grace})`,
            ),
          ]
        : [];
    },
  ],
];

/**
 * A handler holds exactly one action; `sleep` is allowed only where `allowSleep` (lifecycle hooks).
 * @param handler the probe or hook object
 * @param path its field path, e.g. `spec.containers[0].livenessProbe`
 * @param gracePeriod the pod's terminationGracePeriodSeconds, bounding a sleep
 * @param allowSleep true for lifecycle hooks
 * @returns the causes, empty when valid
 */
export function validateHandler(
  handler: Obj,
  path: string,
  gracePeriod: number | undefined,
  allowSleep = false,
): StatusCause[] {
  const out: StatusCause[] = [];
  let count = 0;
  for (const [name, check] of ACTIONS) {
    if (handler[name] === undefined || handler[name] === null || (name === 'sleep' && !allowSleep)) continue;
    if (count > 0)
      out.push(fieldError.forbidden(`${path}.${name}`, 'may not specify more than 1 handler type'));
    else {
      count++;
      out.push(...check(shape.obj(handler[name]), `${path}.${name}`, gracePeriod));
    }
  }
  if (count === 0) out.push(fieldError.required(path, 'must specify a handler type'));
  return out;
}
