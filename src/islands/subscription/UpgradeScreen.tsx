/**
 * Changing the plan (owners only): the three plans side by side with what each means for this space,
 * monthly or yearly billing, the charge line by line before paying (proration credit and charge), the card, and the
 * answer: paid at once, scheduled for the period's end, or refused with the reason.
 */

import { useStore } from '@nanostores/react';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { formatUsd, priceCents } from '../../../contract/billing.ts';
import { type BillingInterval, testCards, yearlyMonthsCharged } from '../../../contract/constants/billing.ts';
import { limitNames, limits } from '../../../contract/constants/limits.ts';
import { type Plan, plans, planTerms } from '../../../contract/constants/plans.ts';
import { allowance } from '../../../contract/limits.ts';
import type { CheckoutPreview, Subscription } from '../../../contract/subscription.ts';
import { ApiError, errorMessage } from '../../lib/api.ts';
import { buildPath } from '../../lib/routes.ts';
import { $spaceId } from '../../stores/route.ts';
import { $subscription, checkout, previewCheckout, receiptUrl } from '../../stores/subscription.ts';
import { withApp } from '../app/with-app.tsx';
import { Alert } from '../shared/Alert.tsx';
import { Field } from '../shared/Field.tsx';
import { Loaded } from '../shared/Loaded.tsx';
import { useApi } from '../shared/use-api.ts';
import { day, OWNERS_ONLY, TestModeMark } from './parts.tsx';
import './subscription.css';

const show = (value: number | null, days = false) =>
  value === null ? 'Unlimited' : `${value.toLocaleString('en')}${days ? ' days' : ''}`;

/** A fresh Idempotency-Key for one payment attempt. */
const newKey = () => crypto.randomUUID();

function UpgradeScreen() {
  const spaceId = useStore($spaceId);
  const { loaded, retry } = useApi($subscription);
  return (
    <Loaded
      spaceId={spaceId}
      loaded={loaded}
      retry={retry}
      notFound={OWNERS_ONLY}
      back={null}
      loading="Loading the plans…"
    >
      {(data, _view, spaceId) => {
        return <Plans spaceId={spaceId} subscription={data} />;
      }}
    </Loaded>
  );
}

function Plans({ spaceId, subscription }: { spaceId: string; subscription: Subscription }) {
  const [interval, setInterval] = useState<BillingInterval>(
    subscription.plan === 'free' ? 'month' : subscription.interval,
  );
  const [chosen, setChosen] = useState<Plan | null>(null);
  const [done, setDone] = useState<{ text: string; receipt: string | null } | null>(null);
  const intervalId = useId();
  const current = subscription.plan;
  return (
    <div className="stack sg-upgrade">
      <TestModeMark />
      {done && (
        <Alert tone="success">
          {done.text}{' '}
          {done.receipt && (
            <a href={done.receipt} target="_blank" rel="noopener">
              Receipt
            </a>
          )}{' '}
          <a href={buildPath('/console/subscription/{space_id}', { space_id: spaceId })}>See the plan and usage</a>
        </Alert>
      )}
      <fieldset className="plain-fieldset sg-interval">
        <legend id={intervalId}>Billing</legend>
        {(['month', 'year'] as const).map((value) => (
          <label key={value} className="sg-interval__choice">
            <input
              type="radio"
              name="interval"
              value={value}
              checked={interval === value}
              onChange={() => {
                setInterval(value);
                setChosen(null);
              }}
            />
            {value === 'month' ? 'Monthly' : `Yearly (${12 - yearlyMonthsCharged} months free)`}
          </label>
        ))}
      </fieldset>
      <div className="sg-plans">
        {plans.map((plan) => {
          const terms = planTerms[plan];
          const isCurrent = plan === current && (plan === 'free' || interval === subscription.interval);
          const price = priceCents(plan, interval);
          return (
            <section
              key={plan}
              className={`card panel sg-plan${isCurrent ? ' sg-plan--current' : ''}`}
              aria-labelledby={`plan-${plan}`}
            >
              <h2 id={`plan-${plan}`}>{terms.label}</h2>
              <p className="sg-plan__price">
                {price === 0 ? 'Free' : `${formatUsd(price)} a ${interval}`}
                {interval === 'year' && price > 0 && (
                  <span className="muted"> ({formatUsd(priceCents(plan, 'month'))} a month billed monthly)</span>
                )}
              </p>
              <table className="data sg-plan__limits">
                <caption className="visually-hidden">What the {terms.label} plan allows this space</caption>
                <tbody>
                  {limitNames.map((name) => {
                    const allowed = allowance(terms, name);
                    const used = subscription.usage[name].used;
                    const over = allowed !== null && used > allowed;
                    return (
                      <tr key={name} className={over ? 'sg-plan__over' : undefined}>
                        <th scope="row">{limits[name].label}</th>
                        <td>
                          {show(allowed, name === 'retentionDays')}
                          {over && (
                            <span className="sg-plan__note"> (this space uses {used.toLocaleString('en')})</span>
                          )}
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
              {isCurrent ? (
                <p className="sg-plan__badge">Your current plan</p>
              ) : (
                <button type="button" className="button" onClick={() => setChosen(plan)} aria-pressed={chosen === plan}>
                  Choose {terms.label}
                </button>
              )}
            </section>
          );
        })}
      </div>
      {chosen && (
        <Change
          key={`${chosen}-${interval}`}
          spaceId={spaceId}
          plan={chosen}
          interval={interval}
          onCancel={() => setChosen(null)}
          onDone={(text, receipt) => {
            setChosen(null);
            setDone({ text, receipt });
          }}
        />
      )}
    </div>
  );
}

/** The chosen change: its preview (lines, total, when), the card when it charges, and the answer. */
function Change({
  spaceId,
  plan,
  interval,
  onCancel,
  onDone,
}: {
  spaceId: string;
  plan: Plan;
  interval: BillingInterval;
  onCancel: () => void;
  onDone: (text: string, receipt: string | null) => void;
}) {
  const [preview, setPreview] = useState<CheckoutPreview | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [pending, setPending] = useState(false);
  const [card, setCard] = useState({ number: '', expMonth: '', expYear: '', cvc: '' });
  // One key per attempt: a retry after a lost answer reuses it; a changed card starts a new attempt.
  const [key, setKey] = useState(newKey);
  const label = planTerms[plan].label;

  useEffect(() => {
    let live = true;
    previewCheckout(spaceId, { plan, interval }).then(
      (answer) => live && setPreview(answer),
      (error: unknown) => live && setProblem(errorMessage(error)),
    );
    return () => {
      live = false;
    };
  }, [spaceId, plan, interval]);

  const pays = preview !== null && preview.effect !== 'scheduled' && preview.totalCents > 0;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setPending(true);
    setProblem(null);
    setFields({});
    try {
      const body = pays
        ? {
            plan,
            interval,
            card: {
              number: card.number,
              expMonth: Number(card.expMonth),
              expYear: Number(card.expYear),
              cvc: card.cvc,
            },
          }
        : { plan, interval };
      const result = await checkout(spaceId, body, key);
      const invoice = result.invoice;
      if (preview?.effect === 'scheduled')
        onDone(`The ${label} plan starts on ${day(preview.effectiveAt)}; until then nothing changes.`, null);
      else
        onDone(
          `You are on the ${label} plan now${invoice ? `; invoice ${invoice.number} for ${formatUsd(invoice.amountCents)} is paid` : ''}.`,
          invoice ? receiptUrl(spaceId, invoice.id) : null,
        );
    } catch (error) {
      // A refused card changes nothing: the next attempt is a new one.
      if (error instanceof ApiError) setKey(newKey());
      if (error instanceof ApiError && Object.keys(error.fields).length > 0) setFields({ ...error.fields });
      setProblem(errorMessage(error));
    } finally {
      setPending(false);
    }
  };

  const cardField = (name: keyof typeof card) => ({
    name,
    value: card[name],
    onChange: (event: { target: { value: string } }) => {
      setCard((old) => ({ ...old, [name]: event.target.value }));
      setKey(newKey());
    },
    error: fields[`card.${name}`] ?? (name === 'number' ? fields.card : undefined),
  });

  return (
    <section className="card panel sg-change" aria-labelledby="change-title">
      <h2 id="change-title">
        Change to {label}, billed every {interval === 'year' ? 'year' : 'month'}
      </h2>
      {!preview && !problem && <p role="status">Working out the charge…</p>}
      {preview &&
        (preview.effect === 'scheduled' ? (
          <p>
            The change takes effect at the end of the current period, on {day(preview.effectiveAt)}. Nothing is charged
            now.
          </p>
        ) : (
          <table className="data sg-lines">
            <caption>Charged now</caption>
            <thead>
              <tr>
                <th scope="col">Line</th>
                <th scope="col">Period</th>
                <th scope="col" className="sg-lines__amount">
                  Amount
                </th>
              </tr>
            </thead>
            <tbody>
              {preview.lines.map((line) => (
                <tr key={`${line.kind}-${line.description}`}>
                  <td>{line.description}</td>
                  <td>
                    {day(line.period.start)} to {day(line.period.end)}
                  </td>
                  <td className="sg-lines__amount">{formatUsd(line.amountCents)}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row" colSpan={2}>
                  Total
                </th>
                <td className="sg-lines__amount">{formatUsd(preview.totalCents)}</td>
              </tr>
            </tfoot>
          </table>
        ))}
      {problem && (
        <p className="alert alert--error" role="alert">
          {problem}
        </p>
      )}
      {preview && (
        <form className="stack" onSubmit={(event) => void submit(event)} noValidate aria-label={`Pay for ${label}`}>
          {pays && (
            <fieldset className="plain-fieldset stack">
              <legend>Card</legend>
              <p className="muted">
                Test cards:{' '}
                {Object.values(testCards)
                  .map((test) => `${test.number.replace(/(\d{4})(?=\d)/g, '$1 ')} (${test.label.toLowerCase()})`)
                  .join('; ')}
                . Any future expiry date and any three digits.
              </p>
              <Field label="Card number" inputMode="numeric" autoComplete="cc-number" {...cardField('number')} />
              <div className="row">
                <Field
                  label="Expiry month"
                  inputMode="numeric"
                  autoComplete="cc-exp-month"
                  placeholder="MM"
                  {...cardField('expMonth')}
                />
                <Field
                  label="Expiry year"
                  inputMode="numeric"
                  autoComplete="cc-exp-year"
                  placeholder="YYYY"
                  {...cardField('expYear')}
                />
                <Field label="CVC" inputMode="numeric" autoComplete="cc-csc" {...cardField('cvc')} />
              </div>
            </fieldset>
          )}
          <div className="row">
            <button type="submit" className="button" disabled={pending}>
              {pending
                ? 'Working…'
                : preview.effect === 'scheduled'
                  ? `Schedule the change to ${label}`
                  : pays
                    ? `Pay ${formatUsd(preview.totalCents)}`
                    : `Change to ${label}`}
            </button>
            <button type="button" className="button secondary" onClick={onCancel}>
              Cancel
            </button>
          </div>
        </form>
      )}
    </section>
  );
}

export default withApp(UpgradeScreen);
