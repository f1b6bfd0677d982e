// A validation error naming its field path, printed as apimachinery's field.Error ("profiles[1].schedulerName: Required value").

export type FieldErrorType = 'Required value' | 'Invalid value' | 'Duplicate value' | 'Unsupported value';

/** One problem with one field of the configuration. */
export interface FieldError {
  /** The field path, e.g. `profiles[1].plugins.filter.enabled[0]`. */
  readonly field: string;
  readonly type: FieldErrorType;
  readonly value?: unknown;
  readonly detail?: string;
  /** The whole text when it was formatted elsewhere (a plugin's own validator). */
  readonly formatted?: string;
}

function show(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === undefined) return 'null';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** `field: Type[: value][: detail]`, as kube-scheduler prints it. */
export function formatFieldError(e: FieldError): string {
  if (e.formatted) return e.formatted;
  switch (e.type) {
    case 'Required value':
      return `${e.field}: Required value${e.detail ? `: ${e.detail}` : ''}`;
    case 'Duplicate value':
      return `${e.field}: Duplicate value: ${show(e.value)}`;
    default:
      return `${e.field}: ${e.type}: ${show(e.value)}${e.detail ? `: ${e.detail}` : ''}`;
  }
}

export const required = (field: string, detail?: string): FieldError => ({
  field,
  type: 'Required value',
  ...(detail ? { detail } : {}),
});
export const invalid = (field: string, value: unknown, detail: string): FieldError => ({
  field,
  type: 'Invalid value',
  value,
  detail,
});
export const duplicate = (field: string, value: unknown): FieldError => ({
  field,
  type: 'Duplicate value',
  value,
});
export const unsupported = (field: string, value: unknown, supported: readonly string[]): FieldError => ({
  field,
  type: 'Unsupported value',
  value,
  detail: `supported values: ${supported.map((s) => JSON.stringify(s)).join(', ')}`,
});
