/**
 * Escaping for the two languages the compiler writes. The contract already holds every value to a narrow alphabet;
 * these functions are the second wall: whatever reaches them cannot end a string, start a directive or expand a macro.
 */

/** Raised when a value that must never reach a configuration file (a line break, a NUL) gets to the compiler. */
export class UnsafeValueError extends Error {
  override name = 'UnsafeValueError';
}

/** True when a text holds a control character (line breaks, NUL, DEL…). */
export function hasControl(value: string): boolean {
  return [...value].some(isControl);
}

function isControl(char: string): boolean {
  const code = char.charCodeAt(0);
  return code < 0x20 || code === 0x7f;
}

/** A value as one nginx string: double-quoted, `\` and `"` escaped; control characters refused (nginx cannot hold them). */
export function nginxString(value: string): string {
  if (hasControl(value))
    throw new UnsafeValueError(`Refusing a control character in an nginx value: ${JSON.stringify(value)}`);
  return `"${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
}

/** Free text in a `#` comment of either language: one line, no backslash (no continuation), at most 200 characters. */
export function commentText(value: string): string {
  const text = [...value]
    .map((char) => (isControl(char) || char === '\\' ? ' ' : char))
    .join('')
    .trim();
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}

/** Free text inside a ModSecurity `msg:'…'`: letters, digits and plain punctuation only, the rest as spaces. */
export function modsecText(value: string): string {
  return value
    .replace(/[^A-Za-z0-9 ._:/()#@+=-]+/g, ' ')
    .replace(/ {2,}/g, ' ')
    .trim()
    .slice(0, 200);
}

function hexBytes(text: string): string {
  return [...Buffer.from(text, 'utf8')].map((byte) => `\\x${byte.toString(16).padStart(2, '0')}`).join('');
}

/** A literal as a PCRE pattern that only holds letters, digits, `/_~-`, `\.` and `\xHH` (no quote, `%`, space or backslash pair). */
export function regexLiteral(value: string): string {
  let out = '';
  for (const char of value) {
    if (/^[A-Za-z0-9/_~-]$/.test(char)) out += char;
    else if (char === '.') out += '\\.';
    else out += hexBytes(char);
  }
  return out;
}

/** Characters a user's regex keeps as typed: printable ASCII except the quote, `%` (macro expansion) and `'`. */
const plain = /^[\u0020-\u007e]$/;
const unsafe = new Set(['"', '%', "'", '\\']);

/**
 * A user's PCRE regex rewritten so it can sit inside a double-quoted ModSecurity operator argument with the same
 * meaning: `"`, `%`, `'`, a literal backslash, control and non-ASCII characters become `\xHH`; `\Q…\E` becomes escaped
 * literals; every backslash left is followed by a plain character, so the text can neither close the quote nor continue
 * the line, and `%{…}` can never expand.
 */
export function modsecRegex(pattern: string): string {
  const chars = [...pattern];
  let out = '';
  for (let index = 0; index < chars.length; index++) {
    const char = chars[index] ?? '';
    if (char !== '\\') {
      out += plain.test(char) && !unsafe.has(char) ? char : hexBytes(char);
      continue;
    }
    const next = chars[index + 1];
    if (next === undefined) {
      out += '\\x5c';
    } else if (next === 'Q') {
      // \Q…\E: a literal run, written out escaped.
      const rest = chars.slice(index + 2).join('');
      const end = rest.indexOf('\\E');
      const literal = end < 0 ? rest : rest.slice(0, end);
      out += [...literal].map((c) => (/^[A-Za-z0-9]$/.test(c) ? c : hexBytes(c))).join('');
      index += 1 + [...literal].length + (end < 0 ? 0 : 2);
    } else if (next === 'c') {
      // \cX: the control character X ^ 0x40, written as its byte when X is not a plain letter.
      const target = chars[index + 2];
      if (target !== undefined && /^[A-Za-z0-9]$/.test(target)) out += `\\c${target}`;
      else if (target !== undefined && plain.test(target)) {
        out += `\\x${((target.toUpperCase().charCodeAt(0) ^ 0x40) & 0x7f).toString(16).padStart(2, '0')}`;
      } else out += '\\x5cc';
      index += target === undefined ? 1 : 2;
    } else if (plain.test(next) && !unsafe.has(next)) {
      out += `\\${next}`;
      index += 1;
    } else {
      // \" \% \' \\ and escaped non-ASCII are literals in PCRE: their bytes.
      out += hexBytes(next);
      index += 1;
    }
  }
  return out;
}
