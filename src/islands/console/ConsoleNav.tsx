import { useEffect } from 'react';
import { rememberSpace } from '../../stores/space.ts';
import { withApp } from '../app/with-app.tsx';
import { ConsoleLinks } from './ConsoleLinks.tsx';
import { useHere } from './use-here.ts';

interface Props {
  /** Icon-only rail (the iconsole layout); labels stay available to screen readers and as tooltips. */
  readonly compact?: boolean;
}

/** The console's navigation rail (above the 56.25rem breakpoint; below it the menu drawer of ConsoleMenu). */
function ConsoleNav({ compact = false }: Props) {
  const here = useHere();
  const spaceId = here?.spaceId;
  useEffect(() => {
    if (spaceId) rememberSpace(spaceId);
  }, [spaceId]);
  return <ConsoleLinks here={here} compact={compact} />;
}

export default withApp(ConsoleNav);
