import { type KeyboardEvent, type ReactNode, useRef } from 'react';
import { tabAfterKey } from '../shared/tab-key.ts';
import type { AlertsTab } from './alert-url.ts';

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

/** The alerts page's two tabs (ARIA tabs: one tab stop, arrows, Home and End move and select). */
export function AlertTabs({ active, onSelect, children }: Props) {
  const refs = useRef(new Map<AlertsTab, HTMLButtonElement>());
  const move = (event: KeyboardEvent<HTMLDivElement>): void => {
    const next = tabAfterKey(
      event.key,
      TABS.findIndex((tab) => tab.id === active),
      TABS.length,
    );
    const tab = next === null ? undefined : TABS[next];
    if (!tab) return;
    event.preventDefault();
    onSelect(tab.id);
    refs.current.get(tab.id)?.focus();
  };
  return (
    <div>
      <div role="tablist" aria-label="Alerts and rules" className="sg-al-tablist" onKeyDown={move}>
        {TABS.map((tab) => (
          <button
            key={tab.id}
            ref={(element) => {
              if (element) refs.current.set(tab.id, element);
              else refs.current.delete(tab.id);
            }}
            type="button"
            role="tab"
            id={`sg-al-tab-${tab.id}`}
            aria-selected={tab.id === active}
            aria-controls={`sg-al-panel-${tab.id}`}
            tabIndex={tab.id === active ? 0 : -1}
            className="sg-al-tab"
            onClick={() => onSelect(tab.id)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      <div
        role="tabpanel"
        id={`sg-al-panel-${active}`}
        aria-labelledby={`sg-al-tab-${active}`}
        className="sg-al-panel"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: the APG tabs pattern makes the panel a tab stop
        tabIndex={0}
      >
        {children}
      </div>
    </div>
  );
}
