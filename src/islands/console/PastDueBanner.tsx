/**
 * The owners' warning on every console page while the space's renewal is unpaid: when it is charged
 * again, when the space falls back to Free, and the way to pay. Others see nothing (the subscription is owners').
 */
import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import type { Subscription } from '../../../contract/subscription.ts';
import { buildPath } from '../../lib/routes.ts';
import { $spaceId } from '../../stores/route.ts';
import { $space } from '../../stores/space.ts';
import { $subscription } from '../../stores/subscription.ts';
import { withApp } from '../app/with-app.tsx';
import { dayUtc } from '../shared/format.ts';

/** Subscribes to the subscription only for owners, so no other role asks for it. */
function useOwnersSubscription(owner: boolean): Subscription | null {
  const [value, setValue] = useState<Subscription | null>(null);
  useEffect(() => {
    if (!owner) return;
    return $subscription.subscribe((state) => setValue(state.data ?? null));
  }, [owner]);
  return owner ? value : null;
}

function PastDueBanner() {
  const spaceId = useStore($spaceId);
  const space = useStore($space);
  const owner = space.data?.role === 'owner';
  const subscription = useOwnersSubscription(owner);
  if (!spaceId || !subscription || subscription.status !== 'past_due' || !subscription.pastDue) return null;
  const { nextRetry, downgradeAt } = subscription.pastDue;
  return (
    <div className="alert alert--error sg-past-due" role="alert">
      <strong>This space's renewal could not be charged.</strong>{' '}
      {nextRetry ? `It is tried again on ${dayUtc(nextRetry)}; ` : ''}
      unless it is paid, the space moves to the Free plan on {dayUtc(downgradeAt)}, keeping its data.{' '}
      <a href={buildPath('/console/subscription/upgrade/{space_id}', { space_id: spaceId })}>Pay now</a>
    </div>
  );
}

export default withApp(PastDueBanner);
