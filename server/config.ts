/** What the API reads from the environment, parsed once. */
export type ApiConfig = {
  production: boolean;
  /** Base URL of the site, for links in mail. */
  publicUrl: string;
  /** Origins allowed to make state-changing cookie calls (CSRF defence) and CORS calls. */
  allowedOrigins: string[];
  /** 'auto': Secure unless the request is for localhost. */
  cookieSecure: 'auto' | boolean;
  /** Believe X-Forwarded-For for the client address. */
  trustProxy: boolean;
  captchaSecret: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  /**
   * Failed sign-ins allowed per window: `perAccount` for one account from one IP (so nobody can lock the owner
   * out from elsewhere), `perAccountAllIps` for one account from everywhere (slows guessing spread over many
   * addresses), `perIp` for one IP over all accounts.
   */
  signIn: { perAccount: number; perAccountAllIps: number; perIp: number; windowSeconds: number };
  /** Calls that send mail (register, resend, forgot) per IP and per address, per window. */
  mail: { perIp: number; perAddress: number; windowSeconds: number };
  sessionDays: number;
  /** Request bodies above this answer 413. */
  bodyLimitBytes: number;
  /** Webhook hosts (names or IPs) allowed although they resolve to loopback, private or link-local addresses. */
  webhookAllowedHosts: string[];
};

type Env = Record<string, string | undefined>;

function bool(value: string | undefined): boolean | undefined {
  if (value === undefined || value === '') return undefined;
  return ['1', 'true', 'yes', 'on'].includes(value.toLowerCase());
}

/** Parses process.env (or any map) into an ApiConfig with the documented defaults. */
export function readConfig(env: Env = process.env): ApiConfig {
  const publicUrl = (env.PUBLIC_URL || `http://127.0.0.1:${env.PORT || '4321'}`).replace(/\/+$/, '');
  const publicOrigin = new URL(publicUrl).origin;
  const listed = (env.ALLOWED_ORIGINS ?? '')
    .split(',')
    .map((o) => o.trim().replace(/\/+$/, ''))
    .filter(Boolean);
  const secure = bool(env.COOKIE_SECURE);
  return {
    production: env.NODE_ENV === 'production',
    publicUrl,
    allowedOrigins: [...new Set([publicOrigin, ...listed])],
    cookieSecure: secure ?? 'auto',
    trustProxy: bool(env.TRUST_PROXY) ?? false,
    captchaSecret: env.CAPTCHA_SECRET || undefined,
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM || 'Spaceguard <no-reply@spaceguard.invalid>',
    signIn: { perAccount: 5, perAccountAllIps: 50, perIp: 30, windowSeconds: 15 * 60 },
    mail: { perIp: 20, perAddress: 3, windowSeconds: 60 * 60 },
    sessionDays: 30,
    bodyLimitBytes: 1024 * 1024,
    webhookAllowedHosts: (env.WEBHOOK_ALLOWED_HOSTS ?? '')
      .split(',')
      .map((host) =>
        host
          .trim()
          .toLowerCase()
          .replace(/^\[|\]$/g, ''),
      )
      .filter(Boolean),
  };
}
