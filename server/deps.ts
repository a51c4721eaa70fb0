import type { ApiConfig } from './config.ts';
import type { Db } from './db/database.ts';
import type { CaptchaVerifier } from './services/accounts/captcha.ts';
import type { BillingProvider } from './services/billing/provider.ts';
import type { SearchLane } from './services/events/search-lane.ts';
import type { Mailer } from './services/mail/mailer.ts';
import type { Logger } from './services/shared/logger.ts';

/** Everything a handler needs from outside: injected once by createApp, read from `c.var.deps`. */
export type AppDeps = {
  db: Db;
  /** Where event-log searches run: bounded in number and in time (services/events/search-lane.ts). */
  searches: SearchLane;
  config: ApiConfig;
  mailer: Mailer;
  captcha: CaptchaVerifier;
  log: Logger;
  now: () => Date;
  /** Who takes payments: the local test-mode provider unless another adapter is given (services/billing/provider.ts). */
  billing: BillingProvider;
};
