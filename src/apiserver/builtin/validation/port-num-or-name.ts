// validatePortNumOrName: an IntOrString port (a probe's, a Service's targetPort) as a number in 1..65535 or an IANA port name.
import type { StatusCause } from '../../api-status.ts';
import { fieldError } from './field-error.ts';
import { formatErrors } from './format-rules.ts';

/**
 * upstream's ValidatePortNumOrName.
 * @param port the value: a number or a name
 * @param field its field path
 * @returns the causes; a missing port is Required
 */
export function validatePortNumOrName(port: unknown, field: string): StatusCause[] {
  if (typeof port === 'number')
    return formatErrors.portNumber(port).map((m) => fieldError.invalid(field, port, m));
  if (typeof port === 'string')
    return formatErrors.portName(port).map((m) => fieldError.invalid(field, port, m));
  return [fieldError.required(field)];
}
