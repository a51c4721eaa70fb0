import { lazy } from 'react';
import { atLeast } from '../../../contract/roles.ts';
import { buildPath } from '../../lib/routes.ts';
import { withApp } from '../app/with-app.tsx';
import { AlertHeader } from './AlertHeader.tsx';
import { AlertPage } from './AlertPage.tsx';
import { AlertRemedies } from './AlertRemedies.tsx';
import { Deliveries } from './Deliveries.tsx';
import { MatchingEvents } from './MatchingEvents.tsx';
import { OnDemand } from './OnDemand.tsx';

// The note and suppression forms load when asked for: the page's code stays within its budget.
const NoteForm = lazy(() => import('./NoteForm.tsx').then((module) => ({ default: module.NoteForm })));
const SuppressForm = lazy(() => import('./SuppressForm.tsx').then((module) => ({ default: module.SuppressForm })));

/**
 * /console/alert/{space_id}/{id}: one alert with its triage actions, timeline and notes, the remedies its address and
 * rules suggest, matching events and notifications.
 */
export function AlertScreen() {
  return (
    <AlertPage
      label="Alert"
      loading="Loading the alert…"
      notFound="This alert does not exist, or it belongs to a space you are not a member of."
    >
      {({ spaceId, role, canWork, alert, now, done, triage, timeline, changed }) => (
        <>
          <p>
            <a href={buildPath('/console/alert/{space_id}', { space_id: spaceId })}>← All alerts</a>
          </p>
          <AlertHeader alert={alert} now={now} />
          {done}
          {canWork ? (
            <div className="sg-al-work">
              {triage}
              {alert.ruleId && (
                <OnDemand label="Do not alert on this group…" loading="Opening the suppression…">
                  <SuppressForm alert={alert} onSuppressed={changed} />
                </OnDemand>
              )}
            </div>
          ) : (
            <p className="muted">Viewers read alerts; analysts, admins and owners work them.</p>
          )}
          {canWork && (
            <AlertRemedies
              spaceId={spaceId}
              group={alert.group}
              traffic={alert.events}
              canApply={atLeast(role, 'admin')}
              firewallId={alert.firewallId}
            />
          )}
          {timeline(
            canWork && (
              <OnDemand label="Add a note…" loading="Opening the note…">
                <NoteForm spaceId={spaceId} alertId={alert.id} onAdded={() => changed('Note added.')} />
              </OnDemand>
            ),
          )}
          <MatchingEvents alert={alert} />
          <Deliveries deliveries={alert.deliveries} />
        </>
      )}
    </AlertPage>
  );
}

export default withApp(AlertScreen);
