/** Virtual patches as settings changes: the rule they add, when the firewall already does it, the CRS group suggested. */
import { describe, expect, test } from 'vitest';
import type { FirewallSettings } from '../../../../contract/firewall-settings.ts';
import { defaultFirewallSettings } from '../../../../contract/firewalls.ts';
import { patchChange, suggestedGroup } from './patch-change.ts';
import { patchInPlace } from './sync.ts';

const settings: FirewallSettings = {
  ...defaultFirewallSettings,
  name: 'shop',
  hostnames: ['shop.example.com'],
  upstream: 'http://127.0.0.1:3000',
  mode: 'block',
};
const target = { vulnId: 'GHSA-jfh8-c2jp-5v3q', packageName: 'log4j-core', assetName: 'shop-web' };

describe('patchChange', () => {
  test('a path block adds one blocking custom rule with the path, methods and query conditions', () => {
    const made = patchChange(
      settings,
      { kind: 'custom-rule', firewallId: 'x', path: '/api/log', methods: ['POST', 'PUT'], queryPattern: 'jndi:' },
      target,
      'shop',
    );
    expect(made.alreadyInPlace).toBe(false);
    expect(made.settings.customRules).toEqual([
      {
        name: 'Virtual patch GHSA-jfh8-c2jp-5v3q (log4j-core)',
        enabled: true,
        action: 'block',
        conditions: [
          { field: 'path', operator: 'startsWith', value: '/api/log' },
          { field: 'method', operator: 'equals', value: ['POST', 'PUT'] },
          { field: 'query', operator: 'regex', value: 'jndi:' },
        ],
      },
    ]);
    expect(made.change).toBe(
      'Block POST and PUT requests to /api/log whose query matches jndi: on shop (GHSA-jfh8-c2jp-5v3q in log4j-core of shop-web).',
    );
  });

  test('a rule that already blocks the same requests is reused, not added twice', () => {
    const first = patchChange(settings, { kind: 'custom-rule', firewallId: 'x', path: '/upload' }, target, 'shop');
    const withId = {
      ...first.settings,
      customRules: first.settings.customRules.map((r) => ({ ...r, id: 4_200_001, name: 'Block uploads' })),
    };
    const again = patchChange(withId, { kind: 'custom-rule', firewallId: 'x', path: '/upload' }, target, 'shop');
    expect(again.alreadyInPlace).toBe(true);
    expect(again.ruleName).toBe('Block uploads');
    expect(again.settings.customRules).toHaveLength(1);
  });

  test('a disabled CRS group is enabled; an enabled one is already in place', () => {
    const disabled = {
      ...settings,
      managedRules: { ...settings.managedRules, disabledGroups: ['REQUEST-944-APPLICATION-ATTACK-JAVA'] },
    };
    const body = { kind: 'crs-group', firewallId: 'x', group: 'REQUEST-944-APPLICATION-ATTACK-JAVA' } as const;
    const made = patchChange(disabled, body, target, 'shop');
    expect(made.settings.managedRules.disabledGroups).toEqual([]);
    expect(made.alreadyInPlace).toBe(false);
    expect(patchChange(settings, body, target, 'shop').alreadyInPlace).toBe(true);
  });
});

describe('patchInPlace', () => {
  const rule = { name: 'VP', enabled: true, action: 'block' as const, id: 4_200_003, conditions: [] };
  test('a custom rule holds while it is present and enabled', () => {
    const patch = { kind: 'custom-rule', ruleId: 4_200_003, group: null };
    expect(patchInPlace(patch, { ...settings, customRules: [rule] })).toBe(true);
    expect(patchInPlace(patch, { ...settings, customRules: [{ ...rule, enabled: false }] })).toBe(false);
    expect(patchInPlace(patch, settings)).toBe(false);
  });
  test('a CRS group holds while it is not disabled', () => {
    const patch = { kind: 'crs-group', ruleId: null, group: 'REQUEST-942-APPLICATION-ATTACK-SQLI' };
    expect(patchInPlace(patch, settings)).toBe(true);
    const off = { ...settings.managedRules, disabledGroups: ['REQUEST-942-APPLICATION-ATTACK-SQLI'] };
    expect(patchInPlace(patch, { ...settings, managedRules: off })).toBe(false);
  });
});

describe('suggestedGroup', () => {
  test('the first weakness with a group wins, by ecosystem where the language matters', () => {
    expect(suggestedGroup(['CWE-917', 'CWE-502'], 'Maven')).toBe('REQUEST-944-APPLICATION-ATTACK-JAVA');
    expect(suggestedGroup(['CWE-1321'], 'npm')).toBe('REQUEST-934-APPLICATION-ATTACK-NODEJS');
    expect(suggestedGroup(['CWE-89'], 'PyPI')).toBe('REQUEST-942-APPLICATION-ATTACK-SQLI');
    expect(suggestedGroup(['CWE-1321'], 'PyPI')).toBeNull();
    expect(suggestedGroup([], 'npm')).toBeNull();
  });
});
