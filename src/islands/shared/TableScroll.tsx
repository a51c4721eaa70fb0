import { type ReactNode, useEffect, useRef, useState } from 'react';

// Styles: panels.css, imported by the layouts that place screens (see console/frame.css).

interface Props {
  /** What the table holds, read out as the region's name ("Members", "Versions"); unique on the page. */
  readonly label: string;
  /** Extra classes for the box (a screen's own spacing or border). */
  readonly className?: string;
  readonly children: ReactNode;
}

/**
 * The one home of every wide table (and other wide content such as diffs): it scrolls sideways inside its own box
 * so the page never does on a phone. While it really scrolls it is a tab stop, so the keyboard can scroll it (axe's
 * scrollable-region-focusable); while everything fits it stays out of the tab order.
 */
export function TableScroll({ label, className, children }: Props) {
  const box = useRef<HTMLElement>(null);
  const [scrolls, setScrolls] = useState(false);
  useEffect(() => {
    const element = box.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const measure = (): void => setScrolls(element.scrollWidth > element.clientWidth + 1);
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    // The content grows without the box changing size (rows arrive, a diff opens): watch it too.
    for (const child of Array.from(element.children)) observer.observe(child);
    measure();
    return () => observer.disconnect();
  });
  return (
    <section
      ref={box}
      className={className ? `sg-table-wrap ${className}` : 'sg-table-wrap'}
      aria-label={label}
      // Focusable only while it scrolls (axe: scrollable-region-focusable).
      tabIndex={scrolls ? 0 : undefined}
    >
      {children}
    </section>
  );
}
