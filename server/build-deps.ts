import { systemClock } from './clock.ts';
import { type ApiConfig, readConfig } from './config.ts';
import type { Db } from './db/database.ts';
import type { AppDeps } from './deps.ts';
import { type CaptchaVerifier, createCaptchaVerifier, skipCaptcha } from './services/accounts/captcha.ts';
import { createLocalProvider } from './services/billing/local-provider.ts';
import type { BillingProvider } from './services/billing/provider.ts';
import { type SearchLane, searchLaneFor } from './services/events/search-lane.ts';
import { createMailer, type Mailer } from './services/mail/mailer.ts';
import { jsonLogger, type Logger } from './services/shared/logger.ts';

export type DepsOptions = {
  db: Db;
  /** Where searches run; by default a lane over `db` (createApi passes one over the search pool). */
  searches?: SearchLane;
  /** Overrides of the configuration read from process.env. */
  config?: Partial<ApiConfig>;
  mailer?: Mailer;
  captcha?: CaptchaVerifier;
  log?: Logger;
  now?: () => Date;
  billing?: BillingProvider;
};

/**
 * The dependencies of the API's handlers and of the background workers, from the environment and the overrides:
 * one builder, so a job sends mail through the same mailer and reads the same configuration as a request.
 */
export function buildDeps(options: DepsOptions): AppDeps {
  const config: ApiConfig = { ...readConfig(), ...options.config };
  const log = options.log ?? jsonLogger;
  const now = options.now ?? systemClock;
  return {
    db: options.db,
    searches: options.searches ?? searchLaneFor({ searchDb: options.db }),
    config,
    log,
    now,
    billing: options.billing ?? createLocalProvider(undefined, now),
    mailer:
      options.mailer ??
      createMailer({
        db: options.db,
        log,
        now,
        smtpUrl: config.smtpUrl,
        from: config.mailFrom,
        production: config.production,
      }),
    captcha: options.captcha ?? (config.captchaSecret ? createCaptchaVerifier(config.captchaSecret) : skipCaptcha),
  };
}
