/**
 * Maven's version order: a port of Maven's `ComparableVersion` (maven-artifact 3.x), as its ComparableVersionTest
 * pins it. A version is lower-cased and split into items: numbers, qualifiers and sub-lists (opened by `-` and by a
 * change between digits and letters); trailing "null" items (`0`, `""`, `ga`, `final`, `release`) are dropped, so
 * `1 = 1.0 = 1.0.0 = 1-ga`. Qualifiers order alpha < beta < milestone < rc (= cr) < snapshot < "" (release) < sp <
 * any other (alphabetically); `a1`, `b1`, `m1` are alpha, beta, milestone when a digit follows.
 *
 * Written here because the `mvncmp` port (npm, tried and dropped) answers "less" for both `compare('11b', '11.a2')` and
 * `compare('11.a2', '11b')`: its list-against-qualifier case returns -1 where Maven returns 1 (`1-1 > 1-sp`).
 */

type Item = { kind: 'int'; digits: string } | { kind: 'string'; qualifier: string } | { kind: 'list'; items: Item[] };

const QUALIFIERS = ['alpha', 'beta', 'milestone', 'rc', 'snapshot', '', 'sp'];
const ALIASES: Record<string, string> = { ga: '', final: '', release: '', cr: 'rc' };
const SHORTHANDS: Record<string, string> = { a: 'alpha', b: 'beta', m: 'milestone' };
/** The comparable form of the release qualifier `""`. */
const RELEASE = String(QUALIFIERS.indexOf(''));

/** A qualifier as a string that sorts in Maven's order: known ones by rank, others after them alphabetically. */
function comparable(qualifier: string): string {
  const rank = QUALIFIERS.indexOf(qualifier);
  return rank === -1 ? `${QUALIFIERS.length}-${qualifier}` : String(rank);
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function stringItem(text: string, followedByDigit: boolean): Item {
  const short = followedByDigit && text.length === 1 ? (SHORTHANDS[text] ?? text) : text;
  return { kind: 'string', qualifier: comparable(ALIASES[short] ?? short) };
}

function parseItem(isDigit: boolean, text: string): Item {
  return isDigit ? { kind: 'int', digits: text.replace(/^0+(?=.)/, '') } : stringItem(text, false);
}

function isNull(item: Item): boolean {
  if (item.kind === 'int') return item.digits === '0';
  if (item.kind === 'string') return item.qualifier === RELEASE;
  return item.items.length === 0;
}

/** Drops trailing null items, looking through trailing sub-lists (Maven's `ListItem.normalize`). */
function normalise(list: Item[]): void {
  for (let i = list.length - 1; i >= 0; i--) {
    const item = list[i] as Item;
    if (isNull(item)) list.splice(i, 1);
    else if (item.kind !== 'list') break;
  }
}

/** The items of a Maven version (Maven's `parseVersion`). */
export function parseMaven(version: string): Item {
  const text = version.toLowerCase();
  const root: Item[] = [];
  let list = root;
  const stack: Item[][] = [root];
  const open = () => {
    const sub: Item[] = [];
    list.push({ kind: 'list', items: sub });
    list = sub;
    stack.push(sub);
  };
  let isDigit = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (c === '.' || c === '-') {
      list.push(i === start ? { kind: 'int', digits: '0' } : parseItem(isDigit, text.slice(start, i)));
      start = i + 1;
      if (c === '-') open();
    } else if (c >= '0' && c <= '9') {
      if (!isDigit && i > start) {
        list.push(stringItem(text.slice(start, i), true));
        start = i;
        open();
      }
      isDigit = true;
    } else {
      if (isDigit && i > start) {
        list.push(parseItem(true, text.slice(start, i)));
        start = i;
        open();
      }
      isDigit = false;
    }
  }
  if (text.length > start) list.push(parseItem(isDigit, text.slice(start)));
  for (let i = stack.length - 1; i >= 0; i--) normalise(stack[i] as Item[]);
  return { kind: 'list', items: root };
}

/** Maven's `Item.compareTo`: `other` null stands for a missing item (the shorter version's end). */
function compareItem(item: Item, other: Item | null): number {
  switch (item.kind) {
    case 'int':
      if (!other) return item.digits === '0' ? 0 : 1;
      if (other.kind !== 'int') return 1;
      return item.digits.length - other.digits.length || cmp(item.digits, other.digits);
    case 'string':
      if (!other) return cmp(item.qualifier, RELEASE);
      if (other.kind !== 'string') return -1;
      return cmp(item.qualifier, other.qualifier);
    case 'list': {
      if (!other) return item.items[0] ? compareItem(item.items[0], null) : 0;
      if (other.kind === 'int') return -1;
      if (other.kind === 'string') return 1;
      const length = Math.max(item.items.length, other.items.length);
      for (let i = 0; i < length; i++) {
        const l = item.items[i] ?? null;
        const r = other.items[i] ?? null;
        const result = l ? compareItem(l, r) : r ? -compareItem(r, null) : 0;
        if (result !== 0) return result;
      }
      return 0;
    }
  }
}

/** Negative, 0 or positive as `a` sorts before, with or after `b` in Maven's order (parsed by `parseMaven`). */
export function compareMaven(a: Item, b: Item): number {
  return Math.sign(compareItem(a, b));
}

export type MavenVersion = Item;
