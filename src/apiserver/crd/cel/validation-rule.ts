// One x-kubernetes-validations entry of a CRD schema, as apiextensions.k8s.io/v1 ValidationRule writes it.

/** The reasons a rule may give its failures (the Status cause type). */
export const VALIDATION_RULE_REASONS = [
  'FieldValueDuplicate',
  'FieldValueForbidden',
  'FieldValueInvalid',
  'FieldValueRequired',
] as const;

/**
 * A CEL validation rule: `rule` must be true for the node's value (`self`); a rule that names
 * `oldSelf` is a transition rule, checked on updates only unless `optionalOldSelf` is set.
 */
export interface ValidationRule {
  rule?: string;
  message?: string;
  messageExpression?: string;
  reason?: string;
  fieldPath?: string;
  optionalOldSelf?: boolean;
}
