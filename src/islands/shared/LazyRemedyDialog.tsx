/**
 * The remedy dialog as its screens show it: its form, preview and diff view load when a remedy is first chosen, not
 * with the page; a screen that does not know the firewalls leaves them to the dialog, which loads the space's then.
 */
import { type ComponentProps, lazy, Suspense } from 'react';
import type { RemedyDialog as Dialog } from './RemedyDialog.tsx';

const RemedyDialog = lazy(() => import('./RemedyDialog.tsx').then((module) => ({ default: module.RemedyDialog })));
const SpaceRemedyDialog = lazy(() =>
  import('./SpaceRemedyDialog.tsx').then((module) => ({ default: module.SpaceRemedyDialog })),
);

type Props = Omit<ComponentProps<typeof Dialog>, 'firewalls'> & {
  /** The firewalls to choose from; left out, the space's firewalls (loaded with the dialog, not with the page). */
  readonly firewalls?: ComponentProps<typeof Dialog>['firewalls'];
};

export function LazyRemedyDialog({ firewalls, ...props }: Props) {
  return (
    <Suspense fallback={<p role="status">Opening the remedy…</p>}>
      {firewalls ? <RemedyDialog firewalls={firewalls} {...props} /> : <SpaceRemedyDialog {...props} />}
    </Suspense>
  );
}
