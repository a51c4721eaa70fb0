import { type KeyboardEvent, type ReactNode, type RefObject, useEffect, useRef } from 'react';
import './drawer.css';

interface Props {
  /** Whether the drawer is shown; the owner keeps this state and the button that opens it. */
  readonly open: boolean;
  /** Called when the drawer asks to close: Escape, its close button, a click on the backdrop. */
  readonly onClose: () => void;
  /** The dialog's name, read out when it opens ("Menu"). */
  readonly label: string;
  /** Where the focus goes back to when the drawer closes (the button that opened it). */
  readonly returnFocus: RefObject<HTMLElement | null>;
  /** Accessible name of the close button. */
  readonly closeLabel?: string;
  /** `nav` (the dark navigation drawer, from the left) or `panel` (a light side panel for a record, from the right). */
  readonly variant?: 'nav' | 'panel';
  readonly children: ReactNode;
}

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea, [tabindex]';

/**
 * A modal side drawer on the native `<dialog>` (`showModal`: the page behind is inert and Escape closes it). Tab and
 * Shift+Tab go round inside it, and closing gives the focus back to the opener. Below the console's breakpoint
 * (56.25rem, 900 px) it takes the whole screen with its close button in view, as every drawer and dialog must.
 */
export function Drawer({ open, onClose, label, returnFocus, closeLabel = 'Close', children, variant = 'nav' }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) {
      element.close();
      returnFocus.current?.focus();
    }
  }, [open, returnFocus]);

  // Keep Tab inside: from the last control to the first and back (the browser would leave for its own UI).
  const trap = (event: KeyboardEvent<HTMLDialogElement>): void => {
    if (event.key !== 'Tab') return;
    const items = Array.from(event.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
      (item) => item.tabIndex >= 0 && item.getClientRects().length > 0,
    );
    const first = items[0];
    const last = items.at(-1);
    if (!first || !last) return;
    const active = document.activeElement;
    if (event.shiftKey && (active === first || !event.currentTarget.contains(active))) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (active === last || !event.currentTarget.contains(active))) {
      event.preventDefault();
      first.focus();
    }
  };

  return (
    <dialog
      ref={dialog}
      className={variant === 'panel' ? 'sg-drawer sg-drawer--panel' : 'sg-drawer'}
      aria-label={label}
      onKeyDown={trap}
      // Escape: the browser's cancel; let the owner's state follow so the focus goes back.
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onClick={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <div className="sg-drawer__head">
        <button type="button" className="button secondary sg-drawer__close" onClick={onClose}>
          <span aria-hidden="true">✕</span> {closeLabel}
        </button>
      </div>
      {open && <div className="sg-drawer__body">{children}</div>}
    </dialog>
  );
}
