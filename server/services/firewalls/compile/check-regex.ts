import { spawnSync } from 'node:child_process';
import { firewallLimits } from '../../../../contract/constants/firewalls.ts';
import { hasControl, modsecRegex } from './escape.ts';

/** Which engine judged a regex: PCRE2 through GNU grep (the library libmodsecurity3 links), or JavaScript as a fallback. */
export type RegexJudge = 'pcre2' | 'javascript';

let judge: RegexJudge | null = null;

/** GNU `grep -P` on an empty input: exit 0 or 1 when the pattern compiles, 2 with PCRE2's message when it does not. */
function grepP(pattern: string): { status: number | null; message: string; missing: boolean } {
  const result = spawnSync('grep', ['-P', '-e', pattern], {
    input: '',
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C' },
    timeout: 5_000,
  });
  const message = (result.stderr ?? '').trim().replace(/^grep: /, '');
  const missing =
    result.error !== undefined || /support for the -P option|invalid option|unrecognized option/.test(message);
  return { status: result.status, message, missing };
}

/** The engine this machine checks regexes with (found once). */
export function regexJudge(): RegexJudge {
  if (judge) return judge;
  judge = grepP('a').missing ? 'javascript' : 'pcre2';
  return judge;
}

const known = new Map<string, string | null>();

/** What PCRE2 says of a pattern, remembered (a save re-checks every regex of a firewall; a grep costs 5–25 ms). */
function pcreVerdict(pattern: string): string | null {
  const cached = known.get(pattern);
  if (cached !== undefined) return cached;
  const { status, message } = grepP(pattern);
  const verdict =
    status === 0 || status === 1
      ? null
      : message
        ? `${message.charAt(0).toUpperCase()}${message.slice(1)}.`
        : 'Not a valid regular expression.';
  if (known.size >= 2_000) known.clear();
  known.set(pattern, verdict);
  return verdict;
}

/**
 * Why ModSecurity would not compile a custom rule's regex, or null when it would. `nginx -t` cannot tell (libmodsecurity
 * 3.0.9 accepts a broken `@rx` and never matches it), so the pattern the compiler writes is compiled by PCRE2 itself
 * through GNU `grep -P` in the C locale (no UTF mode, like ModSecurity). Where grep has no `-P`, JavaScript's RegExp
 * judges instead, which is close to PCRE but not the same.
 */
export function checkRegex(value: string): string | null {
  if (value.length === 0) return 'Enter a regular expression.';
  if (value.length > firewallLimits.regexLength) return `Use at most ${firewallLimits.regexLength} characters.`;
  if (hasControl(value)) return 'Use one line without control characters.';
  // The compiler writes a lone trailing backslash as a literal one; as typed it is an error.
  if (/(^|[^\\])(\\\\)*\\$/.test(value)) return '\\ at end of pattern.';
  if (regexJudge() === 'javascript') {
    try {
      new RegExp(value);
      return null;
    } catch (error) {
      return error instanceof Error ? error.message : 'Not a valid regular expression.';
    }
  }
  // As the compiler writes it (quotes and `%` as \xHH, \Q…\E spelled out): what ModSecurity will compile.
  return pcreVerdict(modsecRegex(value));
}
