/** The OWASP CRS rules a firewall must keep: no zod, so the WAF screens ask the question the contract's schema asks. */

/** CRS rules that score and decide, and its initialisation: an exclusion of one of them would switch the WAF off. */
export function isProtectedRule(ruleId: number): boolean {
  return [949110, 959100, 980130, 980140].includes(ruleId) || (ruleId >= 901000 && ruleId <= 901999);
}

/** CRS rules that report or decide on the anomaly score rather than detect an attack (the verdict, not the cause). */
export function isScoringRule(ruleId: number): boolean {
  return ruleId === 949110 || ruleId === 959100 || (ruleId >= 980000 && ruleId <= 980999);
}

const macro = /%\{[^}]*\}/;

/**
 * A CRS rule's message as a reader sees it away from the request it fired on: the `%{TX.ANOMALY_SCORE}` macros the
 * rule file holds are only known in the transaction, so a parenthesis or a tail holding one is dropped
 * ("Inbound Anomaly Score Exceeded (Total Score: %{TX.ANOMALY_SCORE})" reads "Inbound Anomaly Score Exceeded") and
 * a macro left in the middle of a sentence reads "…".
 */
export function readableCrsMessage(message: string): string {
  let text = message;
  // Parentheses holding a macro, innermost first.
  for (let before = ''; before !== text; ) {
    before = text;
    text = text.replace(/\s*\([^()]*%\{[^}]*\}[^()]*\)/, '');
  }
  // A tail after ": " or " - " that holds a macro.
  const tail = /(:\s|\s-\s)/g;
  for (let match = tail.exec(text); match; match = tail.exec(text)) {
    if (macro.test(text.slice(match.index))) {
      text = text.slice(0, match.index);
      break;
    }
  }
  return text
    .replace(/\s+(from|in|of|for|and)\s+%\{[^}]*\}/g, '')
    .replace(/%\{[^}]*\}/g, '…')
    .replace(/[\s:,-]+$/, '')
    .trim();
}
