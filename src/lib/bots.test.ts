import { expect, test } from 'vitest';
import { isBot } from './bots.ts';

test.each([
  ['Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', true],
  ['Mozilla/5.0 (Linux; Android 11) Chrome/120 Mobile Safari/537.36 Chrome-Lighthouse', true],
  ['facebookexternalhit/1.1', true],
  ['Mozilla/5.0 (compatible; bingBOT/2.0)', true],
  ['Google-InspectionTool/1.0', true],
  ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/156.0 Safari/537.36', false],
])('%s is a bot: %s', (userAgent, expected) => {
  expect(isBot(userAgent)).toBe(expected);
});
