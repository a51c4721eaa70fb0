/**
 * The remedy dialog as WAF discover and the WAF alert page show it: its form, preview and diff view load when a
 * remedy is first chosen, not with the page.
 */
import { type ComponentProps, lazy, Suspense } from 'react';
import type { RemedyDialog as Dialog } from './RemedyDialog.tsx';

const RemedyDialog = lazy(() => import('./RemedyDialog.tsx').then((module) => ({ default: module.RemedyDialog })));

export function LazyRemedyDialog(props: ComponentProps<typeof Dialog>) {
  return (
    <Suspense fallback={<p role="status">Opening the remedy…</p>}>
      <RemedyDialog {...props} />
    </Suspense>
  );
}
