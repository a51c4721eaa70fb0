/** The tabs of the firewall configuration page: their ids, labels and the settings keys each one edits. */
import type { SettingsKey } from '../../stores/firewalls.ts';
import { type FieldErrors, hasErrorUnder } from '../shared/field-errors.ts';

/** One tab of the configuration page. */
export interface ConfigTab {
  readonly id: string;
  readonly label: string;
  /** The settings keys the tab edits: an API message under one of them marks the tab. */
  readonly keys: readonly SettingsKey[];
}

/** The tabs, in order. */
export const configTabs: readonly ConfigTab[] = [
  { id: 'general', label: 'General', keys: ['name', 'hostnames', 'upstream', 'mode', 'trustedProxies'] },
  { id: 'managed', label: 'Managed rules', keys: ['managedRules'] },
  { id: 'exclusions', label: 'Exclusions', keys: ['exclusions'] },
  { id: 'custom', label: 'Custom rules', keys: ['customRules'] },
  { id: 'ip', label: 'IP lists', keys: ['ipAllow', 'ipDeny'] },
  { id: 'countries', label: 'Countries', keys: ['countryBlock'] },
  { id: 'rate', label: 'Rate limits', keys: ['rateLimits'] },
  { id: 'connect', label: 'Connect', keys: [] },
  { id: 'preview', label: 'Preview', keys: [] },
  { id: 'history', label: 'History', keys: [] },
];

/** True when the API named a field of this tab. */
export function tabHasError(tab: ConfigTab, errors: FieldErrors): boolean {
  return hasErrorUnder(errors, tab.keys);
}

/** The tab that edits a settings key. */
export function tabOfKey(key: string): ConfigTab | undefined {
  return configTabs.find((tab) => tab.keys.some((own) => own === key));
}
