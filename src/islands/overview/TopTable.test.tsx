import { render, screen, within } from '@testing-library/react';
import { TopTable } from './TopTable.tsx';

test('each value and its count link to its events, with a note under the value where there is one', () => {
  const notes: Record<string, string> = { '942100': 'SQL Injection Attack Detected via libinjection' };
  render(
    <TopTable
      id="rules-title"
      title="Top rules"
      column="Rule"
      rows={[
        { value: '942100', count: 1200 },
        { value: '999001', count: 3 },
      ]}
      link={(value) => `/console/siem/s?q=rule%3A${value}&range=24h`}
      note={(value) => notes[value]}
    />,
  );
  const table = within(screen.getByRole('region', { name: 'Top rules' }));
  const [first, second] = table.getAllByRole('row').slice(1);
  if (!first || !second) throw new Error('two rows expected');
  expect(first).toHaveTextContent('942100SQL Injection Attack Detected via libinjection1,200');
  expect(within(first).getByRole('link', { name: '942100' }).getAttribute('href')).toBe(
    '/console/siem/s?q=rule%3A942100&range=24h',
  );
  expect(within(first).getByRole('link', { name: '1,200' }).getAttribute('href')).toBe(
    '/console/siem/s?q=rule%3A942100&range=24h',
  );
  expect(second).toHaveTextContent(/^999001\s*3$/);
});
