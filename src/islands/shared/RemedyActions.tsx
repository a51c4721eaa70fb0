/**
 * "Block this address" and "This is a false positive" where a person looks at WAF traffic (an event, an alert, a top
 * list): each opens the remedy dialog with its preview, on the event's firewall or the space's first.
 */
import { useRef, useState } from 'react';
import { atLeast } from '../../../contract/roles.ts';
import { $firewalls } from '../../stores/firewalls.ts';
import { $space } from '../../stores/space.ts';
import { LazyRemedyDialog } from './LazyRemedyDialog.tsx';
import type { RemedyDraft } from './RemedyDialog.tsx';
import { useApi } from './use-api.ts';

interface Props {
  readonly spaceId: string;
  /** The client address to block; none, no block button. */
  readonly ip?: string | null | undefined;
  /** The rule to exclude and the path it matched on; no rule, no false-positive button. */
  readonly ruleId?: number | null | undefined;
  readonly path?: string | null | undefined;
  /** The firewall the traffic went through, chosen first in the dialog. */
  readonly firewallId?: string | null | undefined;
  /** Named after what the buttons act on, for screen readers where several sets share a page. */
  readonly subject?: string;
}

/** The path without its query string: the prefix an exclusion starts from. */
const pathOnly = (path: string | null | undefined) => (path ? path.split('?')[0] || '/' : '/');

export function RemedyActions({ spaceId, ip, ruleId, path, firewallId, subject }: Props) {
  const firewalls = useApi($firewalls);
  const space = useApi($space);
  const [remedy, setRemedy] = useState<{ draft: RemedyDraft; key: number } | null>(null);
  const [open, setOpen] = useState(false);
  const opener = useRef<HTMLElement | null>(null);
  const role = space.loaded.state === 'ready' ? space.loaded.data.role : 'viewer';
  const list = firewalls.loaded.state === 'ready' ? firewalls.loaded.data.items : [];
  const known = list.some((item) => item.id === firewallId);
  const propose = (draft: RemedyDraft, button: HTMLElement): void => {
    opener.current = button;
    setRemedy((now) => ({ draft, key: (now?.key ?? 0) + 1 }));
    setOpen(true);
  };
  const about = subject ? ` (${subject})` : '';
  if (!ip && ruleId == null) return null;
  return (
    <>
      {ip && (
        <button
          type="button"
          className="button secondary"
          aria-label={`Block this address${about}`}
          onClick={(event) => propose({ kind: 'block-ip', ip }, event.currentTarget)}
        >
          Block this address
        </button>
      )}
      {ruleId != null && (
        <button
          type="button"
          className="button secondary"
          aria-label={`This is a false positive${about}`}
          onClick={(event) => propose({ kind: 'exclude-rule', ruleId, path: pathOnly(path) }, event.currentTarget)}
        >
          This is a false positive
        </button>
      )}
      {remedy && (
        <LazyRemedyDialog
          key={remedy.key}
          spaceId={spaceId}
          firewalls={list.map((item) => ({ id: item.id, name: item.name }))}
          {...(known && firewallId ? { firewallId } : {})}
          remedy={remedy.draft}
          canApply={atLeast(role, 'admin')}
          open={open}
          onClose={() => setOpen(false)}
          returnFocus={opener}
        />
      )}
    </>
  );
}
