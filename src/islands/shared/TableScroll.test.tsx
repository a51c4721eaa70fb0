import { act, render, screen } from '@testing-library/react';
import { TableScroll } from './TableScroll.tsx';

/** jsdom lays nothing out: a ResizeObserver we can fire, and widths we choose. */
let observed: (() => void)[] = [];
beforeEach(() => {
  observed = [];
  vi.stubGlobal(
    'ResizeObserver',
    class {
      readonly callback: () => void;
      constructor(callback: () => void) {
        this.callback = callback;
      }
      observe(): void {
        observed.push(this.callback);
      }
      disconnect(): void {}
    },
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
});

function widths(element: HTMLElement, scrollWidth: number, clientWidth: number): void {
  Object.defineProperty(element, 'scrollWidth', { configurable: true, value: scrollWidth });
  Object.defineProperty(element, 'clientWidth', { configurable: true, value: clientWidth });
}

const table = (
  <table>
    <tbody>
      <tr>
        <td>wide</td>
      </tr>
    </tbody>
  </table>
);

test('the box is a named region that is a tab stop only while its table is wider than it', () => {
  render(<TableScroll label="Members table">{table}</TableScroll>);
  const region = screen.getByRole('region', { name: 'Members table' });
  expect(region).toHaveClass('sg-table-wrap');
  expect(region).not.toHaveAttribute('tabindex');

  // The screen narrows: the table no longer fits, so the keyboard must be able to scroll it.
  widths(region, 800, 343);
  act(() => {
    for (const fire of observed) fire();
  });
  expect(region).toHaveAttribute('tabindex', '0');

  // Wide again: out of the tab order.
  widths(region, 1100, 1100);
  act(() => {
    for (const fire of observed) fire();
  });
  expect(region).not.toHaveAttribute('tabindex');
});

test('extra classes join the shared one', () => {
  render(
    <TableScroll label="Settings, version 1 to version 2" className="sg-diff">
      {table}
    </TableScroll>,
  );
  expect(screen.getByRole('region', { name: 'Settings, version 1 to version 2' })).toHaveClass(
    'sg-table-wrap',
    'sg-diff',
  );
});
