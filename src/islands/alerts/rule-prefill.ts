/** A new rule prefilled from the URL (`?newRule=1&name=…&kind=…&query=…&groupBy=ip,rule&threshold=…&windowMinutes=…`), as WAF discover links. */
import { alertGroupFields, alertLimits, alertRuleKinds } from '../../../contract/constants/alerts.ts';
import { EMPTY_DRAFT, type RuleDraft } from './rule-draft.ts';

/** The URL parameters a prefill link may carry, removed once the editor has read them. */
export const PREFILL_PARAMS = ['newRule', 'name', 'kind', 'query', 'groupBy', 'threshold', 'windowMinutes'] as const;

const digits = (value: string | null): string => (value !== null && /^\d{1,9}$/.test(value) ? value : '');

/** The form a prefill link asks for, or null when the URL has no `newRule=1`; unknown values are left out. */
export function readRulePrefill(search: string): RuleDraft | null {
  const params = new URLSearchParams(search);
  if (params.get('newRule') !== '1') return null;
  const kind = alertRuleKinds.find((known) => known === params.get('kind')) ?? EMPTY_DRAFT.kind;
  // The fields in the order given, each once, known ones only.
  const groupBy = [...new Set((params.get('groupBy') ?? '').split(','))].flatMap((name) =>
    alertGroupFields.filter((field) => field === name),
  );
  return {
    ...EMPTY_DRAFT,
    name: (params.get('name') ?? '').slice(0, alertLimits.nameLength),
    kind,
    query: (params.get('query') ?? '').slice(0, alertLimits.queryLength),
    groupBy: groupBy.slice(0, alertLimits.groupFields),
    threshold: digits(params.get('threshold')) || EMPTY_DRAFT.threshold,
    windowMinutes: digits(params.get('windowMinutes')) || EMPTY_DRAFT.windowMinutes,
  };
}
