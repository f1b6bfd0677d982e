// Readers for untyped JSON: an object's field as an object, a list, a string or a number, never throwing.

/** A JSON object with unknown fields. */
export type Obj = Record<string, unknown>;

/**
 * Narrowing readers for request bodies, which may hold anything: a wrong shape reads as absent
 * (`{}`, `[]`, `undefined`) so each rule reports on the fields it knows.
 */
export const shape = {
  /** The value as an object, `{}` when it is not one. */
  obj: (value: unknown): Obj =>
    value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Obj) : {},
  /** The value as a list of objects, `[]` when it is not a list. */
  list: (value: unknown): Obj[] => (Array.isArray(value) ? (value as Obj[]) : []),
  /** The value when it is a string. */
  str: (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined),
  /** The value when it is a number. */
  num: (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined),
  /** The value as text, never throwing: strings as they are, absent as '', other values as JSON. */
  text: (value: unknown): string =>
    typeof value === 'string'
      ? value
      : value === undefined || value === null
        ? ''
        : typeof value === 'object'
          ? JSON.stringify(value)
          : String(value),
  /**
   * The value, or the default upstream's defaulting gives a field left at its zero value: absent, null
   * and '' (and 0 where `zero` says so) read as `fallback`.
   */
  defaulted: <T>(value: unknown, fallback: T, zero = false): unknown =>
    value === undefined || value === null || value === '' || (zero && value === 0) ? fallback : value,
  /** True when the value is absent, null, '' or an empty list. */
  empty: (value: unknown): boolean =>
    value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0),
} as const;
