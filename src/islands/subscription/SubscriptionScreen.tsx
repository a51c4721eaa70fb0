/**
 * The plan page (owners only): the current plan, its period, the next renewal and its amount, a past-due
 * warning, a scheduled change (cancellable), the payment method and this period's use of every limit.
 */

import { useStore } from '@nanostores/react';
import { useState } from 'react';
import { priceCents } from '../../../contract/billing.ts';
import type { BillingInterval } from '../../../contract/constants/billing.ts';
import { planTerms } from '../../../contract/constants/plans.ts';
import { errorMessage } from '../../lib/api.ts';
import { buildPath } from '../../lib/routes.ts';
import { $spaceId } from '../../stores/route.ts';
import { $subscription, cancelScheduledChange } from '../../stores/subscription.ts';
import { withApp } from '../app/with-app.tsx';
import { Alert } from '../shared/Alert.tsx';
import { ConfirmButton } from '../shared/ConfirmButton.tsx';
import { Loaded } from '../shared/Loaded.tsx';
import { useApi } from '../shared/use-api.ts';
import { day, formatUsd, OWNERS_ONLY, TestModeMark, UsageBars } from './parts.tsx';
import './subscription.css';

const per = (interval: BillingInterval) => (interval === 'year' ? 'year' : 'month');

function SubscriptionScreen() {
  const spaceId = useStore($spaceId);
  const { loaded, retry } = useApi($subscription);
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  return (
    <Loaded
      spaceId={spaceId}
      loaded={loaded}
      retry={retry}
      notFound={OWNERS_ONLY}
      back={null}
      loading="Loading the subscription…"
    >
      {(data, _view, spaceId) => {
        const sub = data;
        const terms = planTerms[sub.plan];
        const upgrade = buildPath('/console/subscription/upgrade/{space_id}', { space_id: spaceId });
        const history = buildPath('/console/subscription/payment-history/{space_id}', { space_id: spaceId });
        const renewal = sub.period && !sub.scheduledChange ? priceCents(sub.plan, sub.interval) : null;
        return (
          <div className="stack sg-subscription">
            <TestModeMark />
            {message && <Alert tone={message.tone}>{message.text}</Alert>}
            {sub.status === 'past_due' && sub.pastDue && (
              <div className="alert alert--error" role="alert">
                <p>
                  <strong>The renewal on {day(sub.pastDue.since)} could not be charged.</strong>{' '}
                  {sub.pastDue.nextRetry ? `It is charged again on ${day(sub.pastDue.nextRetry)}. ` : ''}
                  Unless it is paid, the space moves to the Free plan on {day(sub.pastDue.downgradeAt)}; nothing is
                  deleted, but what goes past the Free plan's limits becomes read-only.
                </p>
                <p>
                  <a href={upgrade}>Pay with another card</a>
                </p>
              </div>
            )}
            <section className="card panel" aria-labelledby="plan-title">
              <h2 id="plan-title">
                {terms.label} plan
                {sub.period ? `, billed every ${per(sub.interval)}` : sub.plan === 'free' ? '' : ', not billed'}
              </h2>
              <dl className="sg-facts">
                {sub.period ? (
                  <>
                    <dt>This period</dt>
                    <dd>
                      {day(sub.period.start)} to {day(sub.period.end)}
                    </dd>
                    <dt>Next renewal</dt>
                    <dd>
                      {renewal === null
                        ? 'None: the plan changes at the end of this period'
                        : `${day(sub.period.end)}, ${formatUsd(renewal)}`}
                    </dd>
                  </>
                ) : (
                  <>
                    <dt>Price</dt>
                    <dd>
                      {sub.plan === 'free'
                        ? 'Free, no renewal'
                        : `None: this space was put on the ${terms.label} plan without a payment, and it does not renew`}
                    </dd>
                  </>
                )}
                <dt>Payment method</dt>
                <dd>
                  {sub.paymentMethod ? `${sub.paymentMethod.brand} ending in ${sub.paymentMethod.last4}` : 'None'}
                </dd>
              </dl>
              {sub.scheduledChange && (
                <div className="sg-scheduled">
                  <p>
                    On {day(sub.scheduledChange.at)} this space moves to the {planTerms[sub.scheduledChange.plan].label}{' '}
                    plan, billed every {per(sub.scheduledChange.interval)}.
                  </p>
                  <ConfirmButton
                    label="Cancel the scheduled change"
                    question={`Keep the ${terms.label} plan after ${day(sub.scheduledChange.at)}?`}
                    confirmLabel="Keep my plan"
                    danger={false}
                    onConfirm={async () => {
                      try {
                        await cancelScheduledChange(spaceId);
                        setMessage({ tone: 'success', text: `The ${terms.label} plan continues.` });
                      } catch (error) {
                        setMessage({ tone: 'error', text: errorMessage(error) });
                      }
                    }}
                  />
                </div>
              )}
              <div className="row">
                <a className="button" href={upgrade}>
                  Change plan
                </a>
                <a className="button secondary" href={history}>
                  Payment history
                </a>
              </div>
            </section>
            <section className="card panel" aria-labelledby="usage-title">
              <h2 id="usage-title">Usage this period</h2>
              <p className="muted">Amber from 80 % of a limit, red at the limit. Each links to where it is managed.</p>
              <UsageBars spaceId={spaceId} usage={sub.usage} />
            </section>
          </div>
        );
      }}
    </Loaded>
  );
}

export default withApp(SubscriptionScreen);
