/** The rule editor's form state: what the user types (numbers as text), made from a saved rule and turned into API bodies. */
import type { AlertRule, AlertRulePreviewBody, CreateAlertRuleBody } from '../../../contract/alert-rules.ts';
import type { AlertGroupField, AlertRuleKind } from '../../../contract/constants/alerts.ts';
import type { Severity } from '../../../contract/constants/events.ts';
import type { ChannelInput } from '../../../contract/notifications.ts';
import { FormProblem } from '../shared/use-submit.ts';

/** An email channel as typed: addresses separated by commas, spaces or lines. */
export interface EmailDraft {
  /** Keeps each channel's fields apart while channels are added and removed. */
  readonly key: string;
  readonly kind: 'email';
  readonly to: string;
}

/** A webhook channel as typed: an empty secret on a saved channel keeps its secret (`secretHint` shows its end). */
export interface WebhookDraft {
  readonly key: string;
  readonly kind: 'webhook';
  readonly url: string;
  readonly secret: string;
  readonly secretHint: string | null;
}

/** One channel of the form. */
export type ChannelDraft = EmailDraft | WebhookDraft;

/** Every field of the editor. */
export interface RuleDraft {
  readonly name: string;
  readonly enabled: boolean;
  readonly severity: Severity;
  readonly kind: AlertRuleKind;
  readonly query: string;
  readonly threshold: string;
  readonly windowMinutes: string;
  readonly groupBy: readonly AlertGroupField[];
  /** Silence rules watch a source or a firewall. */
  readonly watch: 'source' | 'firewall';
  readonly sourceId: string;
  readonly firewallId: string;
  readonly titleTemplate: string;
  readonly renotifyMinutes: string;
  readonly autoResolveMinutes: string;
  readonly channels: readonly ChannelDraft[];
}

/** A new rule's form: a threshold rule starts at more than 10 events in 5 minutes, a silence rule at 5 minutes. */
export const EMPTY_DRAFT: RuleDraft = {
  name: '',
  enabled: true,
  severity: 'high',
  kind: 'match',
  query: '',
  threshold: '10',
  windowMinutes: '5',
  groupBy: [],
  watch: 'source',
  sourceId: '',
  firewallId: '',
  titleTemplate: '',
  renotifyMinutes: '',
  autoResolveMinutes: '',
  channels: [],
};

let channelCount = 0;

/** A key for a channel added to the form. */
export function channelKey(): string {
  channelCount += 1;
  return `channel-${channelCount}`;
}

const text = (value: number | null): string => (value === null ? '' : String(value));

/** The form of a saved rule. */
export function draftOfRule(rule: AlertRule): RuleDraft {
  return {
    name: rule.name,
    enabled: rule.enabled,
    severity: rule.severity,
    kind: rule.kind,
    query: rule.query,
    threshold: text(rule.threshold),
    windowMinutes: text(rule.windowMinutes),
    groupBy: rule.groupBy,
    watch: rule.firewallId ? 'firewall' : 'source',
    sourceId: rule.sourceId ?? '',
    firewallId: rule.firewallId ?? '',
    titleTemplate: rule.titleTemplate ?? '',
    renotifyMinutes: text(rule.renotifyMinutes),
    autoResolveMinutes: text(rule.autoResolveMinutes),
    channels: rule.channels.map((channel) =>
      channel.kind === 'email'
        ? { key: channelKey(), kind: 'email', to: channel.to.join(', ') }
        : { key: channelKey(), kind: 'webhook', url: channel.url, secret: '', secretHint: channel.secretHint },
    ),
  };
}

// A whole number typed in a field, null when empty; anything else is the form's own field error.
function whole(value: string, field: string, problems: Record<string, string>): number | null {
  const trimmed = value.trim();
  if (trimmed === '') return null;
  if (!/^\d+$/.test(trimmed)) {
    problems[field] = 'Use a whole number.';
    return null;
  }
  return Number(trimmed);
}

/** Splits typed email addresses. */
export function splitAddresses(value: string): string[] {
  return value
    .split(/[\s,;]+/)
    .map((item) => item.trim())
    .filter(Boolean);
}

function channelInput(channel: ChannelDraft): ChannelInput {
  if (channel.kind === 'email') return { kind: 'email', to: splitAddresses(channel.to) };
  return channel.secret === ''
    ? { kind: 'webhook', url: channel.url.trim() }
    : { kind: 'webhook', url: channel.url.trim(), secret: channel.secret };
}

/** What a rule's kind reads from the form (the other kinds' fields are sent empty so a kind change clears them). */
function kindFields(draft: RuleDraft, problems: Record<string, string>) {
  const windowMinutes = whole(draft.windowMinutes, 'windowMinutes', problems);
  const threshold = whole(draft.threshold, 'threshold', problems);
  if (draft.kind === 'match')
    return { query: draft.query, threshold: null, windowMinutes: null, groupBy: [...draft.groupBy] };
  if (draft.kind === 'threshold') return { query: draft.query, threshold, windowMinutes, groupBy: [...draft.groupBy] };
  return {
    query: '',
    threshold: null,
    windowMinutes,
    groupBy: [],
    sourceId: draft.watch === 'source' && draft.sourceId ? draft.sourceId : null,
    firewallId: draft.watch === 'firewall' && draft.firewallId ? draft.firewallId : null,
  };
}

/** The create (or full update) body of the form; a number field that is not a whole number throws a FormProblem. */
export function ruleBody(
  draft: RuleDraft,
): CreateAlertRuleBody & { sourceId: string | null; firewallId: string | null } {
  const problems: Record<string, string> = {};
  const body = {
    name: draft.name,
    enabled: draft.enabled,
    severity: draft.severity,
    kind: draft.kind,
    sourceId: null,
    firewallId: null,
    ...kindFields(draft, problems),
    titleTemplate: draft.titleTemplate.trim() === '' ? null : draft.titleTemplate,
    renotifyMinutes: whole(draft.renotifyMinutes, 'renotifyMinutes', problems),
    autoResolveMinutes: whole(draft.autoResolveMinutes, 'autoResolveMinutes', problems),
    channels: draft.channels.map(channelInput),
  };
  if (Object.keys(problems).length > 0) throw new FormProblem(problems);
  return body;
}

/** The preview body of the form: the rule's detection fields over the last `hours`. */
export function previewBody(draft: RuleDraft, hours = 24): AlertRulePreviewBody {
  const { kind, query, threshold, windowMinutes, groupBy, sourceId, firewallId, titleTemplate } = ruleBody(draft);
  return { kind, query, threshold, windowMinutes, groupBy, sourceId, firewallId, titleTemplate, hours };
}
