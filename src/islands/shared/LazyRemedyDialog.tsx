/**
 * The remedy dialog as its screens show it: its form, preview and diff view load when a remedy is first chosen, not
 * with the page; a screen that does not know the firewalls leaves them to the dialog, which loads the space's then.
 */
import { type ComponentProps, lazy, Suspense } from 'react';
import type { SpaceRemedyDialog as Dialog } from './SpaceRemedyDialog.tsx';

const SpaceRemedyDialog = lazy(() =>
  import('./SpaceRemedyDialog.tsx').then((module) => ({ default: module.SpaceRemedyDialog })),
);

export function LazyRemedyDialog(props: ComponentProps<typeof Dialog>) {
  return (
    <Suspense fallback={<p role="status">Opening the remedy…</p>}>
      <SpaceRemedyDialog {...props} />
    </Suspense>
  );
}
