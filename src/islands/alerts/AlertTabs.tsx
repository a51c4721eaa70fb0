import type { ReactNode } from 'react';
import type { AlertsTab } from '../shared/alert-url.ts';
import { Tabs } from '../shared/Tabs.tsx';

interface Props {
  readonly active: AlertsTab;
  readonly onSelect: (tab: AlertsTab) => void;
  /** The active tab's panel. */
  readonly children: ReactNode;
}

const TABS: readonly { id: AlertsTab; label: string }[] = [
  { id: 'alerts', label: 'Alerts' },
  { id: 'rules', label: 'Rules' },
];

/** The alerts page's two tabs. */
export function AlertTabs({ active, onSelect, children }: Props) {
  return (
    <Tabs tabs={TABS} label="Alerts and rules" prefix="sg-al" active={active} onSelect={onSelect}>
      {children}
    </Tabs>
  );
}
