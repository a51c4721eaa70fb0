import type { Context } from 'hono';
import type { AppEnv } from '../context.ts';
import { fieldError } from '../errors.ts';

/** 400 on `captchaToken` unless the provider accepts the token for this action. */
export async function checkCaptcha(c: Context<AppEnv>, token: string | undefined, action: string): Promise<void> {
  const ok = await c.var.deps.captcha({ token, action, ip: c.var.ip });
  if (!ok) throw fieldError('captchaToken', 'The bot check failed; try again.', 'captcha_failed');
}
