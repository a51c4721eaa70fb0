import type { ReactNode } from 'react';
import { type TabClasses, Tabs } from '../shared/Tabs.tsx';
import type { ConfigTab } from './config-tabs.ts';

interface Props {
  readonly tabs: readonly ConfigTab[];
  readonly active: string;
  readonly onSelect: (id: string) => void;
  /** Tabs whose fields the API refused: marked in their label. */
  readonly withErrors: ReadonlySet<string>;
  /** Tabs with unsaved changes. */
  readonly changed: ReadonlySet<string>;
  /** The active tab's panel. */
  readonly children: ReactNode;
}

/** The firewall's settings as the shared tabs, each label saying whether its tab has errors or unsaved changes. */
export function ConfigTabs({ tabs, active, onSelect, withErrors, changed, children }: Props) {
  const classes: TabClasses<string> = {
    root: 'sg-fw-tabs',
    list: 'sg-fw-tablist',
    tab: (id) => (withErrors.has(id) ? 'sg-fw-tab sg-fw-tab--error' : 'sg-fw-tab'),
    panel: 'sg-fw-panel',
  };
  const labelled = tabs.map((tab) => ({
    id: tab.id,
    label: `${tab.label}${withErrors.has(tab.id) ? ' (has errors)' : changed.has(tab.id) ? ' (changed)' : ''}`,
  }));
  return (
    <Tabs
      tabs={labelled}
      label="Firewall settings"
      prefix="sg-fw"
      active={active}
      onSelect={onSelect}
      classes={classes}
    >
      {children}
    </Tabs>
  );
}
