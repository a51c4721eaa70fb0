/** The app error: recorded at start-up or render failures, shown as the error page (never to bots). */
import { atom } from 'nanostores';
import { isBot } from '../lib/bots.ts';
import { showErrorPage } from '../lib/error-page.ts';

export interface AppError {
  readonly status: number;
  readonly message: string;
  readonly fatal: boolean;
}

/** The current app error, or null while all is well. */
export const $appError = atom<AppError | null>(null);

/** Records an error as the app error; bots only get it logged. */
export function reportAppError(error: unknown, status = 500, userAgent: string = navigator.userAgent): void {
  const message = error instanceof Error ? error.message : String(error);
  if (isBot(userAgent)) {
    console.error('Spaceguard: error hidden from bot', error);
    return;
  }
  $appError.set({ status, message, fatal: true });
}

/** Shows the error page whenever an app error is recorded; the one place that touches the DOM. */
export function bindAppErrorToDocument(doc: Document = document): () => void {
  return $appError.listen((appError) => {
    if (appError) showErrorPage(doc, appError.status, appError.message);
  });
}
