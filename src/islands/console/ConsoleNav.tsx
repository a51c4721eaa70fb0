import { useEffect, useState } from 'react';
import { buildPath, matchRoute } from '../../lib/routes.ts';
import { ensureConfig } from '../../stores/config.ts';
import { $currentSpaceId } from '../../stores/space.ts';
import { withApp } from '../app/with-app.tsx';
import { CONSOLE_AREAS } from './console-areas.ts';
import './ConsoleNav.css';

interface Props {
  /** Icon-only rail (the iconsole layout); labels stay available to screen readers and as tooltips. */
  readonly compact?: boolean;
}

/** The console's navigation rail: every area of the current space, the current one marked. */
function ConsoleNav({ compact = false }: Props) {
  // The shell is shared by every space: read the space and current route from the URL after hydration.
  const [here, setHere] = useState<{ spaceId: string; pattern: string } | null>(null);
  useEffect(() => {
    const match = matchRoute(location.pathname);
    const spaceId = match?.params.space_id;
    if (match && spaceId) {
      setHere({ spaceId, pattern: match.route.pattern });
      // Remembered in the storage the runtime config names, so wait for it.
      void ensureConfig().then(() => $currentSpaceId.set(spaceId));
    }
  }, []);
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
