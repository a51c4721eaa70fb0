import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { beforeAll, expect, test, vi } from 'vitest';
import type { EventSummary } from '../../../contract/events.ts';
import { EventTable, FIRST_ROWS, ROW_HEIGHT } from './EventTable.tsx';

// jsdom does no layout: give the scrolling region the size a browser would (16 rows tall).
beforeAll(() => {
  for (const [name, size] of [
    ['clientHeight', 16 * ROW_HEIGHT],
    ['clientWidth', 960],
  ] as const) {
    const original = Object.getOwnPropertyDescriptor(Element.prototype, name);
    Object.defineProperty(HTMLElement.prototype, name, {
      configurable: true,
      get(this: HTMLElement) {
        return this.classList.contains('event-table') ? size : (original?.get?.call(this) ?? 0);
      },
    });
  }
});

const start = Date.parse('2026-11-20T12:00:00Z');

function event(index: number): EventSummary {
  return {
    id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
    sourceId: '00000000-0000-4000-8000-000000000000',
    time: new Date(start - index * 1000).toISOString(),
    receivedAt: new Date(start).toISOString(),
    dedupKey: null,
    ip: `10.0.${Math.floor(index / 256) % 256}.${index % 256}`,
    country: index % 3 === 0 ? 'FR' : null,
    method: 'GET',
    host: 'shop.example.test',
    path: `/item/${index}`,
    status: index % 3 === 0 ? 403 : 200,
    action: index % 3 === 0 ? 'blocked' : 'allowed',
    severity: 'info',
    ruleIds: index % 3 === 0 ? [942100] : [],
    tags: [],
    message: null,
    userAgent: null,
    firewallId: null,
  };
}

const rowsOf = (n: number, from = 0) => Array.from({ length: n }, (_, i) => event(from + i));

/** The body rows that show an event (not the spacers). */
const shown = () =>
  screen.getAllByRole('row').filter((row) => row.hasAttribute('aria-rowindex') && row.closest('tbody'));

function scrollTo(top: number) {
  const region = screen.getByRole('region', { name: 'Events, scrollable' });
  act(() => {
    region.scrollTop = top;
    fireEvent.scroll(region);
  });
}

test('only the rows in view are in the document, however many are loaded', async () => {
  render(
    <EventTable
      rows={rowsOf(100_000)}
      total={100_000}
      hasMore={false}
      loading={false}
      onLoadMore={vi.fn()}
      onSelect={vi.fn()}
    />,
  );
  // Before the first scroll: the first rows as they are (more than a tall screen holds), no virtualiser loaded yet.
  const first = shown();
  expect(first).toHaveLength(FIRST_ROWS);
  expect(first[0]).toHaveAttribute('aria-rowindex', '2');
  expect(first[0]).toHaveTextContent('/item/0');
  expect(screen.getByRole('table')).toHaveAttribute('aria-rowcount', '100001');
  expect(screen.getByRole('status')).toHaveTextContent('100,000 of 100,000 events loaded; scroll for more.');

  // Far down the list: the virtualiser loads with the first scroll, the rows there are rendered, the first ones gone.
  scrollTo(50_000 * ROW_HEIGHT);
  await waitFor(() => expect(screen.getByText(/\/item\/50000$/)).toBeInTheDocument());
  expect(screen.getByRole('status')).toHaveTextContent('100,000 of 100,000 events loaded.');
  const later = shown();
  expect(later.length).toBeLessThan(100);
  expect(screen.queryByText(/\/item\/0$/)).toBeNull();
  const indexes = later.map((row) => Number(row.getAttribute('aria-rowindex')));
  expect(Math.min(...indexes)).toBeGreaterThan(49_900);
  expect(screen.getByText(/\/item\/50000$/)).toBeInTheDocument();
});

/** A table wired like the screen wires it: pages of 500 arrive when asked for. */
function Paged({ total, onAsk }: { total: number; onAsk: () => void }) {
  const [rows, setRows] = useState(rowsOf(500));
  return (
    <EventTable
      rows={rows}
      total={total}
      hasMore={rows.length < total}
      loading={false}
      onLoadMore={() => {
        onAsk();
        setRows((now) => [...now, ...rowsOf(Math.min(500, total - now.length), now.length)]);
      }}
      onSelect={vi.fn()}
    />
  );
}

test('the next page is asked for when the end of the loaded rows comes into view, not before', async () => {
  const ask = vi.fn();
  render(<Paged total={1_200} onAsk={ask} />);
  expect(ask).not.toHaveBeenCalled();
  expect(screen.getByRole('status')).toHaveTextContent('500 of 1,200 events loaded; scroll for more.');
  scrollTo(100 * ROW_HEIGHT);
  await waitFor(() => expect(shown().map((row) => row.getAttribute('aria-rowindex'))).toContain('102'));
  expect(ask).not.toHaveBeenCalled();
  scrollTo(480 * ROW_HEIGHT);
  await waitFor(() => expect(ask).toHaveBeenCalledTimes(1));
  expect(screen.getByRole('status')).toHaveTextContent('1,000 of 1,200 events loaded; scroll for more.');
  scrollTo(980 * ROW_HEIGHT);
  await waitFor(() => expect(ask).toHaveBeenCalledTimes(2));
  expect(screen.getByRole('status')).toHaveTextContent('1,200 of 1,200 events loaded.');
  scrollTo(1_190 * ROW_HEIGHT);
  await waitFor(() => expect(shown().map((row) => row.getAttribute('aria-rowindex'))).toContain('1192'));
  expect(ask).toHaveBeenCalledTimes(2);
});

test('a row opens its event, by keyboard too', async () => {
  const select = vi.fn();
  render(
    <EventTable rows={rowsOf(3)} total={3} hasMore={false} loading={false} onLoadMore={vi.fn()} onSelect={select} />,
  );
  const row = screen.getAllByRole('row').find((element) => element.textContent?.includes('/item/1')) as HTMLElement;
  const button = within(row).getByRole('button', { name: /59:59/ });
  button.focus();
  fireEvent.click(button);
  expect(select).toHaveBeenCalledWith(expect.objectContaining({ path: '/item/1' }));
});

test('while a page loads the status says so', () => {
  render(<EventTable rows={rowsOf(500)} total={9_000} hasMore loading onLoadMore={vi.fn()} onSelect={vi.fn()} />);
  expect(screen.getByRole('status')).toHaveTextContent('Loading more events… 500 of 9,000 loaded.');
});

const messages = {
  '942100': 'SQL Injection Attack Detected via libinjection',
  '949110': 'Inbound Anomaly Score Exceeded',
};

/** The row of the table that shows `path`. */
const rowWith = (path: string) =>
  screen.getAllByRole('row').find((element) => element.textContent?.includes(path)) as HTMLElement;

test('a row answers at a glance: coloured action and severity, the country’s name by the IP, each rule with its message', () => {
  const wide = { ...event(0), severity: 'critical' as const, ruleIds: [942100, 949110, 920350] };
  render(
    <EventTable
      rows={[wide, event(1)]}
      total={2}
      hasMore={false}
      loading={false}
      onLoadMore={vi.fn()}
      onSelect={vi.fn()}
      messages={messages}
    />,
  );
  const headers = screen.getAllByRole('columnheader').map((cell) => cell.textContent);
  expect(headers).toEqual(['Time', 'Action', 'Severity', 'Client', 'Request', 'Rules', 'Status']);
  const [time, action, severity, client, request, rules, status] = within(rowWith('/item/0')).getAllByRole('cell');
  expect(time).toHaveTextContent(/\d{2}:00:00$/);
  expect(within(action as HTMLElement).getByText('blocked')).toHaveClass('badge--blocked');
  expect(within(severity as HTMLElement).getByText('critical')).toHaveClass('sg-sev--critical');
  // The flag (decoration, served by the site) and the name next to the IP; the code is in the title.
  expect(within(client as HTMLElement).getByText('10.0.0.0')).toBeInTheDocument();
  expect(within(client as HTMLElement).getByText('France')).toBeInTheDocument();
  const flag = (client as HTMLElement).querySelector('img.country-chip__flag');
  expect(flag).toHaveAttribute('src', '/flags/fr.svg');
  expect(flag).toHaveAttribute('alt', '');
  expect(client).toHaveAttribute('title', '10.0.0.0 — France (FR)');
  // The full request and rules on hover, however narrow the column.
  expect(request).toHaveAttribute('title', 'GET shop.example.test/item/0');
  expect(rules).toHaveTextContent(
    '942100 SQL Injection Attack Detected via libinjection; 949110 Inbound Anomaly Score Exceeded; 920350',
  );
  expect(rules).toHaveAttribute(
    'title',
    '942100 SQL Injection Attack Detected via libinjection\n949110 Inbound Anomaly Score Exceeded\n920350',
  );
  expect(status).toHaveTextContent('403');
  // An allowed event without country or rules.
  const [, allowed, , quiet, , none] = within(rowWith('/item/1')).getAllByRole('cell');
  expect(within(allowed as HTMLElement).getByText('allowed')).toHaveClass('badge--allowed');
  expect(quiet).toHaveTextContent(/^10\.0\.0\.1$/);
  expect(none).toHaveTextContent('—');
});

test('a country code the browser cannot name shows as the code, read out too', () => {
  render(
    <EventTable
      rows={[{ ...event(0), country: 'QQ' }]}
      total={1}
      hasMore={false}
      loading={false}
      onLoadMore={vi.fn()}
      onSelect={vi.fn()}
    />,
  );
  const client = within(rowWith('/item/0')).getAllByRole('cell')[3] as HTMLElement;
  expect(within(client).getByText('QQ')).not.toHaveAttribute('aria-hidden');
  expect(client).toHaveAttribute('title', '10.0.0.0 — QQ');
  // Without messages, the rule id alone.
  expect(within(rowWith('/item/0')).getAllByRole('cell')[5]).toHaveTextContent(/^942100$/);
});
