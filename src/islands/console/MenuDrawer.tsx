/** The console menu's drawer (navigation and space switcher), loaded when the menu is first opened or pointed at. */
import type { RefObject } from 'react';
import { Drawer } from '../shared/Drawer.tsx';
import { ConsoleLinks } from './ConsoleLinks.tsx';
import { SpaceSwitch } from './SpaceSwitch.tsx';
import type { Here } from './use-here.ts';

interface Props {
  readonly here: Here;
  readonly open: boolean;
  readonly onClose: () => void;
  readonly returnFocus: RefObject<HTMLElement | null>;
}

export function MenuDrawer({ here, open, onClose, returnFocus }: Props) {
  return (
    <Drawer open={open} onClose={onClose} label="Menu" closeLabel="Close menu" returnFocus={returnFocus}>
      <a className="brand console-menu__brand" href="/spaces">
        All spaces
      </a>
      <SpaceSwitch here={here} className="console-menu__switch" />
      <ConsoleLinks here={here} className="console-nav--drawer" />
    </Drawer>
  );
}
