import { type KeyboardEvent, type ReactNode, useRef } from 'react';
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

/** ARIA tabs: one tab stop, arrows move and select, Home and End go to the first and last. */
export function ConfigTabs({ tabs, active, onSelect, withErrors, changed, children }: Props) {
  const refs = useRef(new Map<string, HTMLButtonElement>());
  const move = (event: KeyboardEvent<HTMLDivElement>): void => {
    const index = tabs.findIndex((tab) => tab.id === active);
    let next = -1;
    if (event.key === 'ArrowRight' || event.key === 'ArrowDown') next = (index + 1) % tabs.length;
    else if (event.key === 'ArrowLeft' || event.key === 'ArrowUp') next = (index - 1 + tabs.length) % tabs.length;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = tabs.length - 1;
    const tab = tabs[next];
    if (!tab) return;
    event.preventDefault();
    onSelect(tab.id);
    refs.current.get(tab.id)?.focus();
  };
  const current = tabs.find((tab) => tab.id === active) ?? tabs[0];
  return (
    <div className="sg-fw-tabs">
      <div role="tablist" aria-label="Firewall settings" className="sg-fw-tablist" onKeyDown={move}>
        {tabs.map((tab) => {
          const selected = tab.id === active;
          const error = withErrors.has(tab.id);
          return (
            <button
              key={tab.id}
              ref={(element) => {
                if (element) refs.current.set(tab.id, element);
                else refs.current.delete(tab.id);
              }}
              type="button"
              role="tab"
              id={`sg-fw-tab-${tab.id}`}
              aria-selected={selected}
              aria-controls={`sg-fw-panel-${tab.id}`}
              tabIndex={selected ? 0 : -1}
              className={error ? 'sg-fw-tab sg-fw-tab--error' : 'sg-fw-tab'}
              onClick={() => onSelect(tab.id)}
            >
              {`${tab.label}${error ? ' (has errors)' : changed.has(tab.id) ? ' (changed)' : ''}`}
            </button>
          );
        })}
      </div>
      {current && (
        <div
          role="tabpanel"
          id={`sg-fw-panel-${current.id}`}
          aria-labelledby={`sg-fw-tab-${current.id}`}
          className="sg-fw-panel"
          // biome-ignore lint/a11y/noNoninteractiveTabindex: the APG tabs pattern makes the panel a tab stop
          tabIndex={0}
        >
          {children}
        </div>
      )}
    </div>
  );
}
