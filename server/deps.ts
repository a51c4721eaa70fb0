import type { ApiConfig } from './config.ts';
import type { Db } from './db/database.ts';
import type { CaptchaVerifier } from './services/captcha.ts';
import type { Logger } from './services/logger.ts';
import type { Mailer } from './services/mailer.ts';

/** Everything a handler needs from outside: injected once by createApp, read from `c.var.deps`. */
export type AppDeps = {
  db: Db;
  config: ApiConfig;
  mailer: Mailer;
  captcha: CaptchaVerifier;
  log: Logger;
  now: () => Date;
};
