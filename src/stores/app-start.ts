/** App start, once per page however many islands mount: theme binding, runtime config, captcha, error page. */

import { initCaptcha } from '../lib/captcha.ts';
import { $config, ensureConfig } from '../lib/config.ts';
import { bindAppErrorToDocument, reportAppError } from './app.ts';
import { bindThemeToDocument } from './theme.ts';

let started: Promise<void> | undefined;

/** Starts the app; a failure is logged as 'Error while mounting app' and recorded as the app error. */
export function startApp(): Promise<void> {
  started ??= (async () => {
    try {
      bindAppErrorToDocument();
      bindThemeToDocument();
      await ensureConfig();
      initCaptcha($config.get().captchaSiteKey);
    } catch (error) {
      console.error('Error while mounting app', error);
      reportAppError(error);
    }
  })();
  return started;
}
