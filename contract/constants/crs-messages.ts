/**
 * The OWASP CRS rule messages (rule id → `msg`), so a rule id in the console reads as what it detects. The table is
 * read from the installed CRS at build time (src/integrations/crs-messages.ts, for scripts/crs-messages.ts and
 * src/pages/crs-messages.json.ts); the committed crs-messages.json beside this file is the fallback where no CRS is
 * installed.
 */

/** Rule id (digits) → the rule's message. */
export type CrsMessages = Readonly<Record<string, string>>;

/** The installed CRS's rules (Debian's `modsecurity-crs`). */
export const CRS_RULES_DIR = '/usr/share/modsecurity-crs/rules';

/** Where the site serves the table. */
export const CRS_MESSAGES_URL = '/crs-messages.json';
