/**
 * The printable receipt of an invoice: one standalone HTML document (no navigation, no scripts) with a print
 * stylesheet that fits A4 and Letter. Every value that is not ours (the space's name, lines, card) is escaped.
 */
import { eq } from 'drizzle-orm';
import { formatUsd, invoiceLabel } from '../../../contract/billing.ts';
import { seller, testModeMark } from '../../../contract/constants/billing.ts';
import { planTerms } from '../../../contract/constants/plans.ts';
import type { SpaceCaller } from '../../caller.ts';
import type { InvoiceRow } from '../../db/schema/billing.ts';
import { spaces } from '../../db/schema/spaces.ts';
import { invoiceOf } from './subscription.ts';

const entities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made safe inside HTML elements and quoted attributes. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => entities[c] ?? c);
}

const day = (d: Date) => d.toISOString().slice(0, 10);
const statusWords = { paid: 'Paid', failed: 'Payment failed', refunded: 'Refunded' } as const;

/** The receipt of `invoice` of the space named `spaceName`. */
export function renderReceipt(invoice: InvoiceRow, spaceName: string): string {
  const e = escapeHtml;
  const number = invoiceLabel(invoice.number);
  const lines = invoice.lines
    .map(
      (l) =>
        `<tr class="${l.kind}"><td>${e(l.description)}</td><td class="amount">${e(formatUsd(l.amountCents))}</td></tr>`,
    )
    .join('\n');
  const proration = invoice.lines.some((l) => l.kind === 'credit')
    ? '<p class="note">Prorated: the unused part of the previous plan is credited, the rest of the period on the new plan charged.</p>'
    : '';
  const card =
    invoice.cardBrand && invoice.cardLast4 ? `${e(invoice.cardBrand)} ending in ${e(invoice.cardLast4)}` : 'None';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Receipt ${e(number)} · ${e(seller.name)}</title>
<style>
  @page { size: auto; margin: 18mm 16mm; }
  * { box-sizing: border-box; }
  body { font: 11pt/1.45 system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif; color: #111; margin: 0 auto; padding: 24px; max-width: 180mm; }
  header { display: flex; justify-content: space-between; gap: 24px; border-bottom: 2px solid #111; padding-bottom: 12px; }
  h1 { font-size: 20pt; margin: 0 0 4px; }
  .test-mode { border: 2px dashed #b45309; color: #7c2d12; background: #fffbeb; padding: 8px 12px; font-weight: 700; margin: 16px 0; text-align: center; }
  dl { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; margin: 16px 0; }
  dt { font-weight: 600; }
  dd { margin: 0; overflow-wrap: anywhere; }
  table { width: 100%; border-collapse: collapse; margin: 16px 0; }
  th, td { text-align: left; padding: 6px 4px; border-bottom: 1px solid #ccc; vertical-align: top; }
  .amount { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
  tr.credit td { color: #065f46; }
  tfoot td { font-weight: 700; border-bottom: 0; border-top: 2px solid #111; }
  .note, footer { font-size: 9pt; color: #444; }
  address { font-style: normal; }
  @media print {
    body { padding: 0; max-width: none; }
    .test-mode { background: none; }
    table, dl { page-break-inside: avoid; }
  }
</style>
</head>
<body>
<header>
  <div>
    <h1>Receipt</h1>
    <div>${e(number)}</div>
  </div>
  <address><strong>${e(seller.name)}</strong><br>${seller.address.map(e).join('<br>')}<br>${e(seller.email)}</address>
</header>
<p class="test-mode">${e(testModeMark)}</p>
<dl>
  <dt>Invoice number</dt><dd>${e(number)}</dd>
  <dt>Date</dt><dd>${e(day(invoice.createdAt))}</dd>
  <dt>Billed to</dt><dd>${e(spaceName)}</dd>
  <dt>Plan</dt><dd>${e(planTerms[invoice.plan].label)}, ${invoice.interval === 'year' ? 'yearly' : 'monthly'}</dd>
  <dt>Period</dt><dd>${e(day(invoice.periodStart))} to ${e(day(invoice.periodEnd))}</dd>
  <dt>Status</dt><dd>${e(statusWords[invoice.status])}${invoice.refundedAt ? ` on ${e(day(invoice.refundedAt))}` : ''}</dd>
  <dt>Payment method</dt><dd>${card}</dd>
</dl>
<table>
  <thead><tr><th>Description</th><th class="amount">Amount (USD)</th></tr></thead>
  <tbody>
${lines}
  </tbody>
  <tfoot><tr><td>Total</td><td class="amount">${e(formatUsd(invoice.totalCents))}</td></tr></tfoot>
</table>
${proration}
<footer>${e(testModeMark)}. ${e(seller.name)} · ${e(number)}</footer>
</body>
</html>
`;
}

/** The receipt page of one invoice of the caller's space; 404 when it is not the space's. */
export async function receiptOf(sc: SpaceCaller, id: string): Promise<string> {
  const invoice = await invoiceOf(sc.deps.db, sc.space.id, id);
  const [space] = await sc.deps.db.select({ name: spaces.name }).from(spaces).where(eq(spaces.id, sc.space.id));
  return renderReceipt(invoice, space?.name ?? sc.space.name);
}
