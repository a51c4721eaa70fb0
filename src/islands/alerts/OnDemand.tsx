import { type ReactNode, Suspense, useEffect, useRef, useState } from 'react';

/**
 * Puts the focus on the first field of what opened once it is there (rendered after it, its effect runs after), in
 * the next task: a form enables its fields in its own first effect.
 */
function FocusFirst({ within }: { readonly within: () => HTMLElement | null }) {
  useEffect(() => {
    const timer = setTimeout(() => within()?.querySelector<HTMLElement>('input, textarea, select')?.focus());
    return () => clearTimeout(timer);
  }, [within]);
  return null;
}

/**
 * A form the alert page opens when asked for ("Add a note…", "Do not alert on this group…"): a button until then,
 * so the form's code (a lazy component) loads on that click, not with the page; its first field takes the focus.
 */
export function OnDemand({ label, loading, children }: { label: string; loading: string; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  if (!open)
    return (
      <div>
        <button type="button" className="button secondary" aria-expanded="false" onClick={() => setOpen(true)}>
          {label}
        </button>
      </div>
    );
  return (
    <div ref={box}>
      <Suspense fallback={<p role="status">{loading}</p>}>
        {children}
        <FocusFirst within={() => box.current} />
      </Suspense>
    </div>
  );
}
