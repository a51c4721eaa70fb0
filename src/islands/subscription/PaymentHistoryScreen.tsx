/** Payment history (owners only): every invoice with its number, plan, period, amount and status, and its receipt. */

import { useStore } from '@nanostores/react';
import { useState } from 'react';
import { formatUsd } from '../../../contract/billing.ts';
import { planTerms } from '../../../contract/constants/plans.ts';
import { errorMessage } from '../../lib/api.ts';
import { $spaceId } from '../../stores/route.ts';
import { $payments, $subscription, receiptUrl, refundPayment } from '../../stores/subscription.ts';
import { withApp } from '../app/with-app.tsx';
import { Alert } from '../shared/Alert.tsx';
import { ConfirmButton } from '../shared/ConfirmButton.tsx';
import { Loaded } from '../shared/Loaded.tsx';
import { TableScroll } from '../shared/TableScroll.tsx';
import { all, useApi } from '../shared/use-api.ts';
import { day, OWNERS_ONLY, TestModeMark } from './parts.tsx';
import './subscription.css';

const statusWords = { paid: 'Paid', failed: 'Failed', refunded: 'Refunded' } as const;

function PaymentHistoryScreen() {
  const spaceId = useStore($spaceId);
  const payments = useApi($payments);
  const subscription = useApi($subscription);
  const loaded = all(payments.loaded, subscription.loaded);
  const retry = (): void => {
    payments.retry();
    subscription.retry();
  };
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  return (
    <Loaded
      spaceId={spaceId}
      loaded={loaded}
      retry={retry}
      notFound={OWNERS_ONLY}
      back={null}
      loading="Loading payments…"
    >
      {(data, _view, spaceId) => {
        const [{ items }, { plan }] = data;
        return (
          <div className="stack">
            <TestModeMark />
            {message && <Alert tone={message.tone}>{message.text}</Alert>}
            {items.length === 0 ? (
              <p className="sg-empty">
                {plan === 'free'
                  ? 'No payments yet: the space has been on the Free plan.'
                  : `No payments yet: this space was put on the ${planTerms[plan].label} plan without a payment, so nothing has been charged.`}
              </p>
            ) : (
              <TableScroll label="Payments">
                <table className="data">
                  <thead>
                    <tr>
                      <th scope="col">Date</th>
                      <th scope="col">Invoice</th>
                      <th scope="col">Plan</th>
                      <th scope="col">Period</th>
                      <th scope="col" className="sg-lines__amount">
                        Amount
                      </th>
                      <th scope="col">Status</th>
                      <th scope="col">
                        <span className="visually-hidden">Receipt and refund</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {items.map((payment) => (
                      <tr key={payment.id}>
                        <td>{day(payment.date)}</td>
                        <td>{payment.number}</td>
                        <td>
                          {planTerms[payment.plan].label}, {payment.interval === 'year' ? 'yearly' : 'monthly'}
                        </td>
                        <td>
                          {day(payment.period.start)} to {day(payment.period.end)}
                        </td>
                        <td className="sg-lines__amount">{formatUsd(payment.amountCents)}</td>
                        <td>
                          <span className={`sg-payment sg-payment--${payment.status}`}>
                            {statusWords[payment.status]}
                          </span>
                          {payment.failureMessage && <span className="muted"> {payment.failureMessage}</span>}
                        </td>
                        <td>
                          <a
                            href={receiptUrl(spaceId, payment.id)}
                            target="_blank"
                            rel="noopener"
                            aria-label={`Receipt ${payment.number}`}
                          >
                            Receipt
                          </a>
                          {payment.status === 'paid' && payment.amountCents > 0 && (
                            <ConfirmButton
                              label="Refund"
                              ariaLabel={`Refund ${payment.number}`}
                              question={`Refund ${formatUsd(payment.amountCents)} of ${payment.number} to the card? If it paid for the current period, the paid plan ends now and the space is on Free at once.`}
                              confirmLabel="Refund"
                              onConfirm={async () => {
                                try {
                                  await refundPayment(spaceId, payment.id);
                                  setMessage({ tone: 'success', text: `${payment.number} is refunded.` });
                                } catch (error) {
                                  setMessage({ tone: 'error', text: errorMessage(error) });
                                }
                              }}
                            />
                          )}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableScroll>
            )}
          </div>
        );
      }}
    </Loaded>
  );
}

export default withApp(PaymentHistoryScreen);
