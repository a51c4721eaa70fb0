/**
 * A row of buttons that each propose one remedy (block an address, exclude a rule on a path) and open the remedy
 * dialog on it, the focus going back to the button when it closes: the one way a screen offers remedies.
 */
import { useRef, useState } from 'react';
import { LazyRemedyDialog } from './LazyRemedyDialog.tsx';
import type { RemedyDraft } from './RemedyDialog.tsx';

/** One button: its visible text, its name for screen readers where the text alone is ambiguous, and its remedy. */
export interface RemedyChoice {
  readonly label: string;
  readonly name?: string;
  readonly draft: RemedyDraft;
}

interface Props {
  readonly spaceId: string;
  readonly choices: readonly RemedyChoice[];
  /** The firewalls to choose from; left out, the space's (loaded when a remedy is first chosen). */
  readonly firewalls?: readonly { readonly id: string; readonly name: string }[];
  /** The firewall the traffic went through, chosen first. */
  readonly firewallId?: string | null | undefined;
  /** Admins and owners apply; everyone else sees the preview. */
  readonly canApply: boolean;
  /** The buttons' look: `button` for a page's main actions, `button secondary` beside other content. */
  readonly className?: string;
  /** Called when the dialog closes, for a screen that shows what a remedy changed. */
  readonly onClose?: () => void;
}

export function RemedyButtons({ spaceId, choices, firewalls, firewallId, canApply, className, onClose }: Props) {
  const [remedy, setRemedy] = useState<{ draft: RemedyDraft; key: number } | null>(null);
  const [open, setOpen] = useState(false);
  const opener = useRef<HTMLElement | null>(null);
  const propose = (draft: RemedyDraft, button: HTMLElement): void => {
    opener.current = button;
    setRemedy((now) => ({ draft, key: (now?.key ?? 0) + 1 }));
    setOpen(true);
  };
  return (
    <>
      {choices.map((choice) => (
        <button
          key={choice.name ?? choice.label}
          type="button"
          className={className ?? 'button secondary'}
          aria-label={choice.name}
          onClick={(event) => propose(choice.draft, event.currentTarget)}
        >
          {choice.label}
        </button>
      ))}
      {remedy && (
        <LazyRemedyDialog
          key={remedy.key}
          spaceId={spaceId}
          {...(firewalls ? { firewalls } : {})}
          {...(firewallId ? { firewallId } : {})}
          remedy={remedy.draft}
          canApply={canApply}
          open={open}
          onClose={() => {
            setOpen(false);
            onClose?.();
          }}
          returnFocus={opener}
        />
      )}
    </>
  );
}
