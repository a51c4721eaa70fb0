import { useStore } from '@nanostores/react';
import { type ReactNode, useState } from 'react';
import type { AlertDetail } from '../../../contract/alerts.ts';
import type { Role } from '../../../contract/constants/roles.ts';
import { atLeast } from '../../../contract/roles.ts';
import { buildPath } from '../../lib/routes.ts';
import { $alert } from '../../stores/alerts.ts';
import { $members } from '../../stores/members.ts';
import { $routeId, $spaceId } from '../../stores/route.ts';
import { $me } from '../../stores/session.ts';
import { $space } from '../../stores/space.ts';
import { Alert } from '../shared/Alert.tsx';
import { Loaded } from '../shared/Loaded.tsx';
import { all, type Loaded as LoadedState, useApi } from '../shared/use-api.ts';
import { QuickActions } from './QuickActions.tsx';
import { Timeline } from './Timeline.tsx';
import '../shared/panels.css';
import '../shared/console-screens.css';
import './alerts.css';

/** What an alert page is given to lay out, once the space, the alert, its members (and its own context) loaded. */
export interface AlertPageParts<X> {
  readonly spaceId: string;
  readonly role: Role;
  /** Analysts, admins and owners triage. */
  readonly canWork: boolean;
  readonly alert: AlertDetail;
  readonly context: X;
  readonly now: number;
  /** The confirmation of the last change, where there is one. */
  readonly done: ReactNode;
  /** Acknowledge, assign, snooze, resolve: for those who triage, else null. */
  readonly triage: ReactNode;
  /** The alert's timeline, with what the page adds under it (a note form). */
  readonly timeline: (children?: ReactNode) => ReactNode;
  /** Shows a change's confirmation. */
  readonly changed: (message: string) => void;
}

interface Props<X> {
  /** The page's heading while it loads ("Alert", "WAF alert"). */
  readonly label: string;
  readonly loading: string;
  readonly notFound: string;
  /** What the page loads beyond the alert (a WAF alert's firewall and requests). */
  readonly context?: { readonly loaded: LoadedState<X>; readonly retry: () => void };
  readonly children: (parts: AlertPageParts<X>) => ReactNode;
}

const nothingMore = { state: 'ready', data: undefined, refreshing: false } as const;

/**
 * One alert's page, as the alert page and the WAF alert page share it: the loading, failure and not-found states,
 * the triage actions with their confirmation, and the timeline with its members' names.
 */
export function AlertPage<X = undefined>({ label, loading, notFound, context, children }: Props<X>) {
  const spaceId = useStore($spaceId);
  const alertId = useStore($routeId);
  const me = useStore($me);
  const space = useApi($space);
  const alert = useApi($alert);
  const members = useApi($members);
  const [done, setDone] = useState<string | null>(null);
  const loaded = all(space.loaded, alert.loaded, members.loaded, context?.loaded ?? nothingMore);
  const retry = (): void => {
    space.retry();
    alert.retry();
    members.retry();
    context?.retry();
  };
  const alertsList = spaceId ? buildPath('/console/alert/{space_id}', { space_id: spaceId }) : '/spaces';
  return (
    <section className="sg-al sg-al-one" aria-labelledby="sg-alert-heading">
      {loaded.state !== 'ready' && (
        <h2 id="sg-alert-heading" className="visually-hidden">
          {label}
        </h2>
      )}
      <Loaded
        spaceId={alertId === null ? null : spaceId}
        loaded={loaded}
        retry={retry}
        loading={loading}
        notFound={notFound}
        back={{ href: alertsList, label: 'Go to the alerts' }}
      >
        {([{ id, role }, detail, { items }, extra]) => {
          const canWork = atLeast(role, 'analyst');
          const names = new Map(items.map((member) => [member.userId, member.name]));
          const now = Date.now();
          return children({
            spaceId: id,
            role,
            canWork,
            alert: detail,
            context: extra as X,
            now,
            done: done && <Alert tone="success">{done}</Alert>,
            triage: canWork && (
              <QuickActions
                key={`${detail.status}-${detail.assignee?.id ?? ''}-${detail.snoozedUntil ?? ''}`}
                alert={detail}
                meId={me?.id ?? null}
                members={items}
                onChanged={setDone}
              />
            ),
            timeline: (more) => (
              <Timeline entries={detail.timeline} now={now} names={names}>
                {more}
              </Timeline>
            ),
            changed: setDone,
          });
        }}
      </Loaded>
    </section>
  );
}
