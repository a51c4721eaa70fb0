import { fieldError } from '../../errors.ts';

/** Checks a bot-check token for a named action; injectable so tests use a double. */
export type CaptchaVerifier = (input: { token: string | undefined; action: string; ip: string }) => Promise<boolean>;

/** reCAPTCHA v3 siteverify, through the provider's alternate domain as the site loads it. */
export const recaptchaVerifyUrl = 'https://www.recaptcha.net/recaptcha/api/siteverify';

type SiteVerifyAnswer = { success?: boolean; action?: string; score?: number };

/** Verifies with the provider: success, the expected action, and a score of at least 0.5. */
export function createCaptchaVerifier(secret: string, fetchImpl: typeof fetch = fetch): CaptchaVerifier {
  return async ({ token, action, ip }) => {
    if (!token) return false;
    const body = new URLSearchParams({ secret, response: token, remoteip: ip });
    try {
      const res = await fetchImpl(recaptchaVerifyUrl, { method: 'POST', body, signal: AbortSignal.timeout(5000) });
      if (!res.ok) return false;
      const answer = (await res.json()) as SiteVerifyAnswer;
      return (
        answer.success === true &&
        (answer.action === undefined || answer.action === action) &&
        (answer.score ?? 1) >= 0.5
      );
    } catch {
      return false;
    }
  };
}

/** Accepts everything: used when no CAPTCHA_SECRET is configured. */
export const skipCaptcha: CaptchaVerifier = async () => true;

/** 400 on `captchaToken` unless the provider accepts the token for this action. */
export async function checkCaptcha(
  verify: CaptchaVerifier,
  ip: string,
  token: string | undefined,
  action: string,
): Promise<void> {
  if (!(await verify({ token, action, ip }))) {
    throw fieldError('captchaToken', 'The bot check failed; try again.', 'captcha_failed');
  }
}
