import { useEffect } from 'react';
import { buildPath } from '../../lib/routes.ts';
import { rememberSpace } from '../../stores/space.ts';
import { withApp } from '../app/with-app.tsx';
import { CONSOLE_AREAS } from './console-areas.ts';
import { useHere } from './use-here.ts';
import './ConsoleNav.css';

interface Props {
  /** Icon-only rail (the iconsole layout); labels stay available to screen readers and as tooltips. */
  readonly compact?: boolean;
}

/** The console's navigation rail: every area of the current space, the current one marked. */
function ConsoleNav({ compact = false }: Props) {
  const here = useHere();
  const spaceId = here?.spaceId;
  useEffect(() => {
    if (spaceId) rememberSpace(spaceId);
  }, [spaceId]);
  return (
    <nav className={`console-nav${compact ? ' console-nav--compact' : ''}`} aria-label="Console">
      <ul>
        {CONSOLE_AREAS.map((area) => {
          const current = here !== null && (area.pattern === here.pattern || area.children.includes(here.pattern));
          return (
            <li key={area.pattern}>
              {here ? (
                <a
                  href={buildPath(area.pattern, { space_id: here.spaceId })}
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

export default withApp(ConsoleNav);
