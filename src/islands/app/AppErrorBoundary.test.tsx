import { render } from '@testing-library/react';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { $appError, bindAppErrorToDocument } from '../../stores/app.ts';
import { AppErrorBoundary } from './AppErrorBoundary.tsx';

function Broken(): never {
  throw new Error('chart data was malformed');
}

let unbind: () => void;
beforeEach(() => {
  document.body.innerHTML = `<div class="sg-shell"><main>page</main></div><div id="sg-app-error"></div>
    <template id="sg-error-template"><h1 tabindex="-1">Lost in Space</h1><p data-sg-status></p><p data-sg-message></p><a href="/spaces">Go back space</a></template>`;
  unbind = bindAppErrorToDocument();
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterEach(() => {
  unbind();
  $appError.set(null);
  vi.restoreAllMocks();
  delete document.body.dataset.appError;
});

test('a render error shows the error page in place of the page', () => {
  render(
    <AppErrorBoundary>
      <Broken />
    </AppErrorBoundary>,
    { container: document.querySelector('main') as HTMLElement },
  );
  const host = document.getElementById('sg-app-error') as HTMLElement;
  expect(document.body.dataset.appError).toBe('true');
  expect(host.querySelector('h1')?.textContent).toBe('Lost in Space');
  expect(host.querySelector('[data-sg-status]')?.textContent).toBe('500');
  expect(host.querySelector('[data-sg-message]')?.textContent).toBe('chart data was malformed');
  expect($appError.get()).toEqual({ status: 500, message: 'chart data was malformed', fatal: true });
});

test('a bot never sees the error page; the error is only logged', () => {
  vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue('Mozilla/5.0 (compatible; Googlebot/2.1)');
  render(
    <AppErrorBoundary>
      <Broken />
    </AppErrorBoundary>,
  );
  expect(document.getElementById('sg-app-error')?.childElementCount).toBe(0);
  expect(document.body.dataset.appError).toBeUndefined();
  expect($appError.get()).toBeNull();
  expect(console.error).toHaveBeenCalledWith('Spaceguard: error hidden from bot', expect.any(Error));
});
