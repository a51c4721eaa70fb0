/** reCAPTCHA v3 from the provider's alternate domain, badge hidden, language Indonesian (the seed's `id`). */

/** The provider's alternate domain, reachable where google.com is not. */
export const CAPTCHA_ORIGIN = 'https://www.recaptcha.net';
/** The seed's captcha language. */
export const CAPTCHA_LANGUAGE = 'id';

interface Grecaptcha {
  ready(callback: () => void): void;
  execute(siteKey: string, options: { action: string }): Promise<string>;
}

declare global {
  interface Window {
    grecaptcha?: Grecaptcha;
  }
}

let siteKey: string | null = null;
let loaded: Promise<Grecaptcha> | null = null;

/** URL of the provider's script for a site key. */
export function captchaScriptUrl(key: string): string {
  return `${CAPTCHA_ORIGIN}/recaptcha/api.js?render=${encodeURIComponent(key)}&hl=${CAPTCHA_LANGUAGE}`;
}

/** Loads the provider's script once for the configured key; with no key the captcha stays off. */
export function initCaptcha(key: string | null, doc: Document = document): void {
  siteKey = key;
  if (!key || loaded) return;
  const style = doc.createElement('style');
  style.textContent = '.grecaptcha-badge{visibility:hidden}';
  doc.head.append(style);
  loaded = new Promise<Grecaptcha>((resolve, reject) => {
    const script = doc.createElement('script');
    script.src = captchaScriptUrl(key);
    script.async = true;
    script.defer = true;
    script.dataset.sgCaptcha = '';
    script.addEventListener('load', () => {
      const api = window.grecaptcha;
      if (api) api.ready(() => resolve(api));
      else reject(new Error('The captcha script loaded without its API.'));
    });
    script.addEventListener('error', () => reject(new Error('The captcha service could not be reached.')));
    doc.head.append(script);
  });
}

/** A token for a named action (login, register, forgot), or null when no site key is configured. */
export async function executeCaptcha(action: string): Promise<string | null> {
  if (!siteKey || !loaded) return null;
  const api = await loaded;
  return api.execute(siteKey, { action });
}

/** Forgets the loaded script; for tests. */
export function resetCaptchaForTests(): void {
  siteKey = null;
  loaded = null;
}
