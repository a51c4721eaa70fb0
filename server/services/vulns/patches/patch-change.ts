/** What a virtual patch does to a firewall's settings, as pure functions: the new settings and the words for it. */
import { firewallLimits } from '../../../../contract/constants/firewalls.ts';
import type { VirtualPatchBody } from '../../../../contract/findings.ts';
import type { CustomRule, FirewallSettings } from '../../../../contract/firewall-settings.ts';

export type PatchTarget = { vulnId: string; packageName: string; assetName: string };

export type PatchChange = {
  settings: FirewallSettings;
  alreadyInPlace: boolean;
  /** One sentence for the person about to apply it. */
  change: string;
  /** The new version's comment. */
  versionComment: string;
  /** The custom rule's name (the patch finds its id by it after the save). */
  ruleName: string | null;
};

/** The custom rule's name: short enough for the firewall's limit, saying what it is for. */
export function patchRuleName(target: PatchTarget): string {
  return `Virtual patch ${target.vulnId} (${target.packageName})`.slice(0, firewallLimits.nameLength);
}

const methodsText = (methods: string[]) =>
  methods.length === 0
    ? 'requests'
    : `${methods.slice(0, -1).join(', ')}${methods.length > 1 ? ' and ' : ''}${methods.at(-1)} requests`;

/** The settings a patch makes, and whether the firewall already does it. */
export function patchChange(
  settings: FirewallSettings,
  body: VirtualPatchBody,
  target: PatchTarget,
  firewallName: string,
): PatchChange {
  if (body.kind === 'crs-group') {
    const disabled = settings.managedRules.disabledGroups.includes(body.group);
    return {
      settings: disabled
        ? {
            ...settings,
            managedRules: {
              ...settings.managedRules,
              disabledGroups: settings.managedRules.disabledGroups.filter((g) => g !== body.group),
            },
          }
        : settings,
      alreadyInPlace: !disabled,
      change: disabled
        ? `Enable the CRS rule group ${body.group} on ${firewallName} for ${target.vulnId}.`
        : `The CRS rule group ${body.group} is already enabled on ${firewallName}: the finding is recorded as mitigated by it.`,
      versionComment: `Enable ${body.group} (virtual patch for ${target.vulnId})`,
      ruleName: null,
    };
  }
  const methods = [...new Set(body.methods ?? [])];
  const conditions: CustomRule['conditions'] = [{ field: 'path', operator: 'startsWith', value: body.path }];
  if (methods.length > 0) conditions.push({ field: 'method', operator: 'equals', value: methods });
  if (body.queryPattern) conditions.push({ field: 'query', operator: 'regex', value: body.queryPattern });
  const ruleName = patchRuleName(target);
  const rule: CustomRule = { name: ruleName, enabled: true, action: 'block', conditions };
  const same = settings.customRules.find(
    (r) => r.enabled && r.action === 'block' && JSON.stringify(r.conditions) === JSON.stringify(conditions),
  );
  const when = body.queryPattern ? ` whose query matches ${body.queryPattern}` : '';
  return {
    settings: same ? settings : { ...settings, customRules: [...settings.customRules, rule] },
    alreadyInPlace: Boolean(same),
    change: same
      ? `“${same.name}” on ${firewallName} already blocks these requests: the finding is recorded as mitigated by it.`
      : `Block ${methodsText(methods)} to ${body.path}${when} on ${firewallName} (${target.vulnId} in ${target.packageName} of ${target.assetName}).`,
    versionComment: `Block ${body.path} (virtual patch for ${target.vulnId})`,
    ruleName: same ? same.name : ruleName,
  };
}

/** CRS request rule groups for a weakness (CWE id), per ecosystem where the language matters. */
const byCwe: Record<string, string | Partial<Record<string, string>>> = {
  'CWE-89': 'REQUEST-942-APPLICATION-ATTACK-SQLI',
  'CWE-564': 'REQUEST-942-APPLICATION-ATTACK-SQLI',
  'CWE-79': 'REQUEST-941-APPLICATION-ATTACK-XSS',
  'CWE-80': 'REQUEST-941-APPLICATION-ATTACK-XSS',
  'CWE-22': 'REQUEST-930-APPLICATION-ATTACK-LFI',
  'CWE-23': 'REQUEST-930-APPLICATION-ATTACK-LFI',
  'CWE-35': 'REQUEST-930-APPLICATION-ATTACK-LFI',
  'CWE-98': 'REQUEST-931-APPLICATION-ATTACK-RFI',
  'CWE-77': 'REQUEST-932-APPLICATION-ATTACK-RCE',
  'CWE-78': 'REQUEST-932-APPLICATION-ATTACK-RCE',
  'CWE-93': 'REQUEST-921-PROTOCOL-ATTACK',
  'CWE-113': 'REQUEST-921-PROTOCOL-ATTACK',
  'CWE-444': 'REQUEST-921-PROTOCOL-ATTACK',
  'CWE-384': 'REQUEST-943-APPLICATION-ATTACK-SESSION-FIXATION',
  'CWE-1321': { npm: 'REQUEST-934-APPLICATION-ATTACK-NODEJS' },
  'CWE-94': {
    npm: 'REQUEST-934-APPLICATION-ATTACK-NODEJS',
    Maven: 'REQUEST-944-APPLICATION-ATTACK-JAVA',
    PyPI: 'REQUEST-932-APPLICATION-ATTACK-RCE',
  },
  'CWE-502': {
    npm: 'REQUEST-934-APPLICATION-ATTACK-NODEJS',
    Maven: 'REQUEST-944-APPLICATION-ATTACK-JAVA',
    PyPI: 'REQUEST-932-APPLICATION-ATTACK-RCE',
  },
  'CWE-917': { Maven: 'REQUEST-944-APPLICATION-ATTACK-JAVA' },
};

/** The CRS group that covers a record's weaknesses best (its first CWE with a group), or null. */
export function suggestedGroup(cweIds: readonly string[], ecosystem: string): string | null {
  for (const cwe of cweIds) {
    const entry = byCwe[cwe.toUpperCase()];
    const group = typeof entry === 'string' ? entry : entry?.[ecosystem];
    if (group) return group;
  }
  return null;
}
