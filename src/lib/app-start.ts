/** App start, once per page however many islands mount: theme binding, runtime config, captcha, error page. */

import { bindAppErrorToDocument, reportAppError } from '../stores/app.ts';
import { $config, ensureConfig } from '../stores/config.ts';
import { bindThemeToDocument } from '../stores/theme.ts';
import { initCaptcha } from './captcha.ts';

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
