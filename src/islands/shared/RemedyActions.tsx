/**
 * "Block this address" and "This is a false positive" where a person looks at WAF traffic (an event, an alert, a top
 * list): each opens the remedy dialog with its preview, on the event's firewall or the space's first. Analysts,
 * admins and owners see them; viewers do not act on traffic.
 */
import type { Role } from '../../../contract/constants/roles.ts';
import { atLeast } from '../../../contract/roles.ts';
import { $space } from '../../stores/space.ts';
import { RemedyButtons, type RemedyChoice } from './RemedyButtons.tsx';
import { pathOnly } from './remedy-path.ts';
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
  /** Short texts ("Block", "False positive") for a table row; the names screen readers hear stay whole. */
  readonly compact?: boolean;
}

/** The caller's role in the URL's space, viewer until it is known: whether remedies are offered, and applied. */
export function useRemedyRole(): Role {
  const space = useApi($space);
  return space.loaded.state === 'ready' ? space.loaded.data.role : 'viewer';
}

export function RemedyActions({ spaceId, ip, ruleId, path, firewallId, subject, compact = false }: Props) {
  const role = useRemedyRole();
  if (!atLeast(role, 'analyst')) return null;
  const about = subject ? ` (${subject})` : '';
  const choices: RemedyChoice[] = [];
  if (ip) {
    const label = 'Block this address';
    choices.push({ label: compact ? 'Block' : label, name: label + about, draft: { kind: 'block-ip', ip } });
  }
  if (ruleId != null) {
    const label = 'This is a false positive';
    choices.push({
      label: compact ? 'False positive' : label,
      name: label + about,
      draft: { kind: 'exclude-rule', ruleId, path: pathOnly(path) },
    });
  }
  if (choices.length === 0) return null;
  return (
    <RemedyButtons spaceId={spaceId} choices={choices} firewallId={firewallId} canApply={atLeast(role, 'admin')} />
  );
}
