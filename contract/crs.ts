/** The OWASP CRS rules a firewall must keep: no zod, so the WAF screens ask the question the contract's schema asks. */

/** CRS rules that score and decide, and its initialisation: an exclusion of one of them would switch the WAF off. */
export function isProtectedRule(ruleId: number): boolean {
  return [949110, 959100, 980130, 980140].includes(ruleId) || (ruleId >= 901000 && ruleId <= 901999);
}
