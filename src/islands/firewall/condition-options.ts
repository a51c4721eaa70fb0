/** What the condition builder offers: the operators that apply to each field, as the API checks them. */
import {
  type ConditionField,
  type ConditionOperator,
  type CustomRuleAction,
  conditionFieldLabels,
  conditionFields,
  conditionOperatorLabels,
  conditionOperators,
  customRuleActions,
} from '../../../contract/constants/firewalls.ts';

/** The operators that apply to a field (client IP: equals or in a CIDR list; country: equals). */
export function operatorsFor(field: ConditionField): readonly ConditionOperator[] {
  if (field === 'ip') return ['equals', 'inCidr'];
  if (field === 'country') return ['equals'];
  return ['equals', 'contains', 'startsWith', 'regex'];
}

/** True when a condition takes several values, one per comma (addresses and country codes). */
export function takesList(field: ConditionField): boolean {
  return field === 'ip' || field === 'country';
}

/** Field choices of the builder. */
export const fieldOptions = conditionFields.map((field) => ({ value: field, label: conditionFieldLabels[field] }));

/** Operator choices for a field. */
export function operatorOptions(field: ConditionField) {
  return operatorsFor(field).map((operator) => ({ value: operator, label: conditionOperatorLabels[operator] }));
}

/** Action choices of a custom rule. */
export const actionOptions: readonly { value: CustomRuleAction; label: string }[] = [
  { value: 'block', label: 'Block (403)' },
  { value: 'allow', label: 'Allow (skip the other rules)' },
  { value: 'log', label: 'Log only' },
];

/** Narrows a typed field. */
export function parseField(value: string): ConditionField | undefined {
  return conditionFields.find((field) => field === value);
}

/** Narrows a typed operator. */
export function parseOperator(value: string): ConditionOperator | undefined {
  return conditionOperators.find((operator) => operator === value);
}

/** Narrows a typed action. */
export function parseRuleAction(value: string): CustomRuleAction | undefined {
  return customRuleActions.find((action) => action === value);
}
