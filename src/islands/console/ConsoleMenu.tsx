import { useRef, useState } from 'react';
import { withApp } from '../app/with-app.tsx';
import { Drawer } from '../shared/Drawer.tsx';
import { ConsoleLinks } from './ConsoleLinks.tsx';
import { SpaceSwitch } from './SpaceSwitch.tsx';
import { useHere } from './use-here.ts';
import './ConsoleMenu.css';

/**
 * Below the 56.25rem breakpoint the rail gives way to this: a menu button in the top bar that opens the navigation,
 * with the space switcher, in a modal drawer. Disabled until hydrated (the shell does not know the space yet);
 * hidden by CSS above the breakpoint, where the rail stays.
 */
function ConsoleMenu() {
  const here = useHere();
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  return (
    <div className="console-menu">
      <button
        ref={button}
        type="button"
        className="button secondary console-menu__button"
        aria-haspopup="dialog"
        aria-expanded={open}
        disabled={here === null}
        onClick={() => setOpen(true)}
      >
        <span aria-hidden="true">☰</span> Menu
      </button>
      {here && (
        <Drawer open={open} onClose={() => setOpen(false)} label="Menu" closeLabel="Close menu" returnFocus={button}>
          <a className="brand console-menu__brand" href="/spaces">
            All spaces
          </a>
          <SpaceSwitch here={here} className="console-menu__switch" />
          <ConsoleLinks here={here} className="console-nav--drawer" />
        </Drawer>
      )}
    </div>
  );
}

export default withApp(ConsoleMenu);
