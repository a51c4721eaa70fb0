import { areaHref, areaOf, CONSOLE_AREAS } from './console-areas.ts';
import type { Here } from './use-here.ts';

// Styles: ConsoleNav.css, imported by the layouts that place the frame (see frame.css).

interface Props {
  /** The space and page; null before hydration, when the shell knows neither (the items are drawn without links). */
  readonly here: Here | null;
  /** Icon-only (the iconsole layout's rail); labels stay available to screen readers and as tooltips. */
  readonly compact?: boolean;
  /** Extra classes, e.g. the drawer's variant. */
  readonly className?: string;
}

/** The console's navigation: every area of the current space, the current one marked. In the rail and in the menu drawer. */
export function ConsoleLinks({ here, compact = false, className }: Props) {
  const classes = ['console-nav', compact && 'console-nav--compact', className].filter(Boolean).join(' ');
  return (
    <nav className={classes} aria-label="Console">
      <ul>
        {CONSOLE_AREAS.map((area) => {
          const current = here !== null && areaOf(here.pattern, here.view) === area;
          return (
            <li key={area.label}>
              {here ? (
                <a
                  href={areaHref(area, here.spaceId)}
                  aria-current={current ? 'page' : undefined}
                  title={compact ? area.label : undefined}
                >
                  <span className="console-nav__icon" aria-hidden="true">
                    {area.icon}
                  </span>
                  <span className="console-nav__label">{area.label}</span>
                </a>
              ) : (
                <span className="console-nav__placeholder">
                  <span className="console-nav__icon" aria-hidden="true">
                    {area.icon}
                  </span>
                  <span className="console-nav__label">{area.label}</span>
                </span>
              )}
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
