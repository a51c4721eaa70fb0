/** A rule's id with its short CRS message, as the table and the drawer show it. */

/** Rule id → the rule's short message ("942100" → "SQL Injection Attack Detected via libinjection"). */
export type RuleMessages = Readonly<Record<string, string>>;

/** "942100 SQL Injection Attack Detected via libinjection", or the id alone when its message is unknown. */
export function ruleText(id: number, messages: RuleMessages): string {
  const message = messages[String(id)];
  return message ? `${id} ${message}` : String(id);
}
