import { afterEach, expect, test } from 'vitest';
import { CAPTCHA_ORIGIN, executeCaptcha, initCaptcha, resetCaptchaForTests } from './captcha.ts';

afterEach(() => {
  resetCaptchaForTests();
  document.head.replaceChildren();
  delete window.grecaptcha;
});

test('with no site key the captcha is off: no script and no token', async () => {
  initCaptcha(null);
  expect(document.querySelector('script')).toBeNull();
  expect(await executeCaptcha('login')).toBeNull();
});

test('with a site key the script comes from the alternate domain, in Indonesian, badge hidden, once', () => {
  initCaptcha('site-key');
  initCaptcha('site-key');
  const scripts = document.querySelectorAll('script[data-sg-captcha]');
  expect(scripts).toHaveLength(1);
  const url = new URL((scripts[0] as HTMLScriptElement).src);
  expect(url.origin).toBe(CAPTCHA_ORIGIN);
  expect(url.searchParams.get('render')).toBe('site-key');
  expect(url.searchParams.get('hl')).toBe('id');
  expect(document.head.textContent).toContain('.grecaptcha-badge{visibility:hidden}');
});

test('executeCaptcha returns the provider token for the named action', async () => {
  initCaptcha('site-key');
  const calls: string[] = [];
  // The provider is outside our system: a stand-in for its API, as the real script would install it.
  window.grecaptcha = {
    ready: (callback) => callback(),
    execute: async (key, { action }) => {
      calls.push(`${key}:${action}`);
      return `token-for-${action}`;
    },
  };
  document.querySelector('script[data-sg-captcha]')?.dispatchEvent(new Event('load'));
  expect(await executeCaptcha('register')).toBe('token-for-register');
  expect(calls).toEqual(['site-key:register']);
});
