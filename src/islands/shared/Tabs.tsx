import { type KeyboardEvent, type ReactNode, useRef } from 'react';
import { tabAfterKey } from './tab-key.ts';
import './tabs.css';

interface Props<Id extends string> {
  readonly tabs: readonly { id: Id; label: string }[];
  /** The tab list's accessible name, such as "Alerts and rules". */
  readonly label: string;
  /** Prefixes the element ids: `sg-al` gives `sg-al-tab-rules` and `sg-al-panel-rules`. */
  readonly prefix: string;
  readonly active: Id;
  readonly onSelect: (tab: Id) => void;
  /** The active tab's panel. */
  readonly children: ReactNode;
  /** Class names for a screen with its own look (the firewall's settings); the shared tabs.css look by default. */
  readonly classes?: TabClasses<Id>;
}

/** The class names of the tabs' parts: the wrapper, the tab list, one tab (it may say more, such as an error), the panel. */
export interface TabClasses<Id extends string> {
  readonly root?: string;
  readonly list: string;
  readonly tab: (id: Id) => string;
  readonly panel: string;
}

const sharedLook: TabClasses<string> = { list: 'sg-tablist', tab: () => 'sg-tab', panel: 'sg-tabpanel' };

/** A screen's tabs (ARIA tabs: one tab stop, arrows, Home and End move and select; the panel is a tab stop). */
export function Tabs<Id extends string>({
  tabs,
  label,
  prefix,
  active,
  onSelect,
  children,
  classes = sharedLook,
}: Props<Id>) {
  const refs = useRef(new Map<Id, HTMLButtonElement>());
  const move = (event: KeyboardEvent<HTMLDivElement>): void => {
    const next = tabAfterKey(
      event.key,
      tabs.findIndex((tab) => tab.id === active),
      tabs.length,
    );
    const tab = next === null ? undefined : tabs[next];
    if (!tab) return;
    event.preventDefault();
    onSelect(tab.id);
    refs.current.get(tab.id)?.focus();
  };
  const current = tabs.some((tab) => tab.id === active) ? active : tabs[0]?.id;
  return (
    <div className={classes.root}>
      <div role="tablist" aria-label={label} className={classes.list} onKeyDown={move}>
        {tabs.map((tab) => (
          <button
            key={tab.id}
            ref={(element) => {
              if (element) refs.current.set(tab.id, element);
              else refs.current.delete(tab.id);
            }}
            type="button"
            role="tab"
            id={`${prefix}-tab-${tab.id}`}
            aria-selected={tab.id === active}
            aria-controls={`${prefix}-panel-${tab.id}`}
            tabIndex={tab.id === active ? 0 : -1}
            className={classes.tab(tab.id)}
            onClick={() => onSelect(tab.id)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      {current !== undefined && (
        <div
          role="tabpanel"
          id={`${prefix}-panel-${current}`}
          aria-labelledby={`${prefix}-tab-${current}`}
          className={classes.panel}
          // biome-ignore lint/a11y/noNoninteractiveTabindex: the APG tabs pattern makes the panel a tab stop
          tabIndex={0}
        >
          {children}
        </div>
      )}
    </div>
  );
}
