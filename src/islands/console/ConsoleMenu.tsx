import { lazy, Suspense, useRef, useState } from 'react';
import { withApp } from '../app/with-app.tsx';
import { useHere } from './use-here.ts';

// Styles: ConsoleMenu.css, imported by the layouts that place the frame (see frame.css).

const loadDrawer = () => import('./MenuDrawer.tsx');
const MenuDrawer = lazy(() => loadDrawer().then((module) => ({ default: module.MenuDrawer })));

/**
 * Below the 56.25rem breakpoint the rail gives way to this: a menu button in the top bar that opens the navigation,
 * with the space switcher, in a modal drawer. Disabled until hydrated (the shell does not know the space yet);
 * hidden by CSS above the breakpoint, where the rail stays. The drawer's code loads when the button is first pointed
 * at, focused or pressed, and the drawer stays mounted from its first opening on.
 */
function ConsoleMenu() {
  const here = useHere();
  const [open, setOpen] = useState(false);
  const [opened, setOpened] = useState(false);
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
        onPointerEnter={() => void loadDrawer()}
        onFocus={() => void loadDrawer()}
        onClick={() => {
          setOpened(true);
          setOpen(true);
        }}
      >
        <span aria-hidden="true">☰</span> Menu
      </button>
      {here && opened && (
        <Suspense fallback={null}>
          <MenuDrawer here={here} open={open} onClose={() => setOpen(false)} returnFocus={button} />
        </Suspense>
      )}
    </div>
  );
}

export default withApp(ConsoleMenu);
