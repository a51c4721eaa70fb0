import { useStore } from '@nanostores/react';
import { useState } from 'react';
import { atLeast } from '../../../contract/roles.ts';
import { buildPath } from '../../lib/routes.ts';
import { $alert } from '../../stores/alerts.ts';
import { $members } from '../../stores/members.ts';
import { $routeId, $spaceId } from '../../stores/route.ts';
import { $me } from '../../stores/session.ts';
import { $space } from '../../stores/space.ts';
import { withApp } from '../app/with-app.tsx';
import { Alert } from '../shared/Alert.tsx';
import { Loaded } from '../shared/Loaded.tsx';
import { all, useApi } from '../shared/use-api.ts';
import { AlertHeader } from './AlertHeader.tsx';
import { Deliveries } from './Deliveries.tsx';
import { MatchingEvents } from './MatchingEvents.tsx';
import { NoteForm } from './NoteForm.tsx';
import { QuickActions } from './QuickActions.tsx';
import { SuppressForm } from './SuppressForm.tsx';
import { Timeline } from './Timeline.tsx';
import '../shared/panels.css';
import '../shared/console-screens.css';
import './alerts.css';

/** /console/alert/{space_id}/{id}: one alert with its triage actions, timeline and notes, matching events and notifications. */
export function AlertScreen() {
  const spaceId = useStore($spaceId);
  const alertId = useStore($routeId);
  const me = useStore($me);
  const space = useApi($space);
  const alert = useApi($alert);
  const members = useApi($members);
  const [done, setDone] = useState<string | null>(null);
  const loaded = all(space.loaded, alert.loaded, members.loaded);
  const retry = (): void => {
    space.retry();
    alert.retry();
    members.retry();
  };
  const changed = (message: string): void => {
    setDone(message);
  };

  const alertsList = spaceId ? buildPath('/console/alert/{space_id}', { space_id: spaceId }) : '/spaces';
  const body = (
    <Loaded
      spaceId={alertId === null ? null : spaceId}
      loaded={loaded}
      retry={retry}
      loading="Loading the alert…"
      notFound="This alert does not exist, or it belongs to a space you are not a member of."
      back={{ href: alertsList, label: 'Go to the alerts' }}
    >
      {(data) => {
        const [{ id, role }, detail, { items: memberItems }] = data;
        const canWork = atLeast(role, 'analyst');
        const now = Date.now();
        return (
          <>
            <p>
              <a href={buildPath('/console/alert/{space_id}', { space_id: id })}>← All alerts</a>
            </p>
            <AlertHeader alert={detail} now={now} />
            {done && <Alert tone="success">{done}</Alert>}
            {canWork ? (
              <div className="sg-al-work">
                <QuickActions
                  key={`${detail.status}-${detail.assignee?.id ?? ''}-${detail.snoozedUntil ?? ''}`}
                  alert={detail}
                  meId={me?.id ?? null}
                  members={memberItems}
                  onChanged={changed}
                />
                {detail.ruleId && <SuppressForm alert={detail} onSuppressed={changed} />}
              </div>
            ) : (
              <p className="muted">Viewers read alerts; analysts, admins and owners work them.</p>
            )}
            <Timeline
              entries={detail.timeline}
              now={now}
              names={new Map(memberItems.map((member) => [member.userId, member.name]))}
            >
              {canWork && <NoteForm spaceId={id} alertId={detail.id} onAdded={() => changed('Note added.')} />}
            </Timeline>
            <MatchingEvents alert={detail} />
            <Deliveries deliveries={detail.deliveries} />
          </>
        );
      }}
    </Loaded>
  );
  return (
    <section className="sg-al sg-al-one" aria-labelledby="sg-alert-heading">
      {loaded.state !== 'ready' && (
        <h2 id="sg-alert-heading" className="visually-hidden">
          Alert
        </h2>
      )}
      {body}
    </section>
  );
}

export default withApp(AlertScreen);
