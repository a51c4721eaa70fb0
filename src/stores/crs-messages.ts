/**
 * The CRS rule messages (rule id → msg) the site serves at `/crs-messages.json`, so a rule id reads as what it
 * detects on the overview and in the event log. Read once, on the first subscription; empty while loading or after
 * a failure (a rule id then shows alone), and a later first subscription asks again after a failure.
 */
import { atom, onMount, type ReadableAtom } from 'nanostores';
import { CRS_MESSAGES_URL, type CrsMessages } from '../../contract/constants/crs-messages.ts';
import { readableCrsMessage } from '../../contract/crs.ts';

const EMPTY: CrsMessages = Object.freeze({});
const $messages = atom<CrsMessages>(EMPTY);

/** Keeps the digit ids with text messages of whatever the file held, their transaction macros dropped. */
function parseMessages(body: unknown): CrsMessages {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return EMPTY;
  const table: Record<string, string> = {};
  for (const [id, msg] of Object.entries(body))
    if (/^\d+$/.test(id) && typeof msg === 'string') table[id] = readableCrsMessage(msg);
  return Object.freeze(table);
}

let requested = false;

onMount($messages, () => {
  // Pre-rendering has no site to fetch from: the page asks once it runs in the browser.
  if (requested || typeof window === 'undefined') return;
  requested = true;
  fetch(CRS_MESSAGES_URL, { headers: { accept: 'application/json' } })
    .then((response) => {
      if (!response.ok) throw new Error(`${CRS_MESSAGES_URL} answered ${response.status}`);
      return response.json();
    })
    .then((body: unknown) => $messages.set(parseMessages(body)))
    .catch((error: unknown) => {
      requested = false;
      console.warn(`Spaceguard: the CRS rule messages could not be read (${String(error)}); rule ids show alone.`);
    });
});

/** Rule id → CRS message: empty until `/crs-messages.json` has been read. */
export const $crsMessages: ReadableAtom<Readonly<Record<string, string>>> = $messages;

/** A rule's message, or undefined for a rule the table does not know (or before it is read). */
export function crsMessage(messages: Readonly<Record<string, string>>, id: string): string | undefined {
  return Object.hasOwn(messages, id) ? messages[id] : undefined;
}

/** Forgets the table; for tests. */
export function resetCrsMessagesForTests(): void {
  requested = false;
  $messages.set(EMPTY);
}
