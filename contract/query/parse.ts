import { type QueryLimit, queryLimits } from '../constants/events.ts';
import {
  actions,
  type CompareOp,
  type ContainsField,
  type EqualsField,
  type QueryNode,
  type Severity,
  severities,
} from './ast.ts';
import { formatNetwork, parseNetwork } from './ip.ts';

/** `limit` names the cost budget's limit (contract/constants/events.ts) the query went past, if that is the error. */
export type QueryError = { message: string; position: number; limit?: QueryLimit };
export type ParseResult = { ok: true; ast: QueryNode } | { ok: false; error: QueryError };

/** The fields a query may name, in the order the error message lists them. */
export const queryFields = [
  'action',
  'country',
  'firewall',
  'host',
  'ip',
  'message',
  'method',
  'path',
  'rule',
  'severity',
  'status',
  'tag',
  'ua',
] as const;
type Field = (typeof queryFields)[number];

const equalsFields: Partial<Record<Field, EqualsField>> = {
  action: 'action',
  country: 'country',
  method: 'method',
  host: 'host',
};
const containsFields: Partial<Record<Field, ContainsField>> = { message: 'message', ua: 'userAgent' };
/** A firewall id as `firewall:` takes it. */
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Largest number a query may hold: status and rule ids are PostgreSQL integers. */
const maxNumber = 2_147_483_647;
/** Deepest nesting of groups and negations, so that no query can exhaust the stack here or in the compiler. */
const maxDepth = 64;

type Term = { field: { name: string; position: number } | null; value: string; position: number; quoted: boolean };
type Token = { type: '(' | ')' | 'OR' | 'AND' | '-'; position: number } | ({ type: 'term' } & Term);

/** Thrown inside the parser and turned into a `{ ok: false }` result by parseQuery. */
class QuerySyntaxError extends Error {
  position: number;
  limit: QueryLimit | undefined;
  constructor(message: string, position: number, limit?: QueryLimit) {
    super(message);
    this.position = position;
    this.limit = limit;
  }
}

function fail(message: string, position: number, limit?: QueryLimit): never {
  throw new QuerySyntaxError(message, position, limit);
}

const isSpace = (c: string | undefined) => c !== undefined && /\s/.test(c);
const endsWord = (c: string | undefined) => c === undefined || isSpace(c) || c === '(' || c === ')';

/** Reads a "quoted" string starting at `start` (the quote); `\` escapes the next character. */
function readQuoted(text: string, start: number): { value: string; end: number } {
  let value = '';
  let i = start + 1;
  while (i < text.length) {
    const c = text[i];
    if (c === '\\' && i + 1 < text.length) {
      value += text[i + 1];
      i += 2;
    } else if (c === '"') {
      return { value, end: i + 1 };
    } else {
      value += c;
      i++;
    }
  }
  return fail('Unclosed quote', start);
}

function readWord(text: string, start: number): { value: string; end: number } {
  let i = start;
  while (!endsWord(text[i])) i++;
  return { value: text.slice(start, i), end: i };
}

/** Splits the text into parentheses, operators and terms, each with its position. */
function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (isSpace(c)) {
      i++;
    } else if (c === '(' || c === ')') {
      tokens.push({ type: c, position: i });
      i++;
    } else if (c === '-') {
      const next = text[i + 1];
      if (next === undefined || isSpace(next) || next === ')') fail('- must be followed by a term', i);
      tokens.push({ type: '-', position: i });
      i++;
    } else if (c === '"') {
      const { value, end } = readQuoted(text, i);
      if (value === '') fail('Empty quoted text', i);
      tokens.push({ type: 'term', field: null, value, position: i, quoted: true });
      i = end;
    } else {
      const field = /^([A-Za-z_][A-Za-z0-9_]*):/.exec(text.slice(i));
      if (field?.[1]) {
        const name = field[1];
        const at = i + name.length + 1;
        if (text[at] === '"') {
          const { value, end } = readQuoted(text, at);
          if (value === '') fail(`Empty value for ${name}`, at);
          tokens.push({ type: 'term', field: { name, position: i }, value, position: at, quoted: true });
          i = end;
        } else {
          const { value, end } = readWord(text, at);
          if (value === '') fail(`Empty value for ${name}`, at);
          tokens.push({ type: 'term', field: { name, position: i }, value, position: at, quoted: false });
          i = end;
        }
      } else {
        const { value, end } = readWord(text, i);
        if (value === 'OR' || value === 'AND') tokens.push({ type: value, position: i });
        else tokens.push({ type: 'term', field: null, value, position: i, quoted: false });
        i = end;
      }
    }
  }
  return tokens;
}

function parseNumber(field: string, text: string, position: number): number {
  if (!/^[0-9]+$/.test(text)) fail(`${field} expects a whole number, got "${text}"`, position);
  const n = Number(text);
  if (n > maxNumber) fail(`Number too large for ${field}: ${text}`, position);
  return n;
}

function parseSeverity(text: string, position: number): number {
  const index = severities.indexOf(text.toLowerCase() as Severity);
  if (index < 0) fail(`severity must be one of ${severities.join(', ')}, got "${text}"`, position);
  return index;
}

/** Splits an unquoted `>=400`, `400..499` or `404` into its operator and operands. */
function splitComparison(term: Term): { op: CompareOp; value: string; to?: string; at: number } {
  if (term.quoted) return { op: '=', value: term.value, at: term.position };
  const m = /^(>=|<=|>|<|=)?(.*)$/s.exec(term.value);
  const op = (m?.[1] ?? '=') as CompareOp;
  const value = m?.[2] ?? '';
  const at = term.position + (m?.[1]?.length ?? 0);
  if (value === '') fail(`Empty value after ${op}`, at);
  const dots = value.indexOf('..');
  if (m?.[1] === undefined && dots >= 0) return { op, value: value.slice(0, dots), to: value.slice(dots + 2), at };
  return { op, value, at };
}

/** `*` at the end of an unquoted value asks for a prefix; anywhere else it is an error. */
function wildcard(term: Term): { value: string; prefix: boolean } {
  if (term.quoted) return { value: term.value, prefix: false };
  const star = term.value.indexOf('*');
  if (star >= 0 && star < term.value.length - 1)
    fail('Wildcard * is only allowed at the end of a value', term.position + star);
  return star < 0 ? { value: term.value, prefix: false } : { value: term.value.slice(0, -1), prefix: true };
}

function buildNumeric(field: 'status' | 'rule', term: Term): QueryNode {
  const { op, value, to, at } = splitComparison(term);
  const from = parseNumber(field, value, at);
  if (to === undefined) return { kind: 'compare', field, op, value: from };
  const end = parseNumber(field, to, at + value.length + 2);
  if (from > end) fail(`Range start ${from} is greater than its end ${end}`, at);
  return { kind: 'range', field, from, to: end };
}

function buildSeverity(term: Term): QueryNode {
  const { op, value, to, at } = splitComparison(term);
  const level = parseSeverity(value, at);
  if (to !== undefined) {
    const end = parseSeverity(to, at + value.length + 2);
    if (level > end) fail(`Range start ${value} is above its end ${to}`, at);
    return { kind: 'severity', levels: severities.slice(level, end + 1) };
  }
  const keep: Record<CompareOp, (i: number) => boolean> = {
    '=': (i) => i === level,
    '>': (i) => i > level,
    '>=': (i) => i >= level,
    '<': (i) => i < level,
    '<=': (i) => i <= level,
  };
  return { kind: 'severity', levels: severities.filter((_, i) => keep[op](i)) };
}

/** Turns one `field:value` or free-text term into its node, checking the value for its field. */
function buildTerm(term: Term): QueryNode {
  // A lone unquoted `*` matches every event (what a dashboard variable with no value chosen stands for).
  if (!term.field && !term.quoted && term.value === '*') return { kind: 'and', children: [] };
  if (!term.field) return { kind: 'text', value: term.value };
  const name = term.field.name.toLowerCase();
  if (!(queryFields as readonly string[]).includes(name)) {
    fail(`Unknown field "${term.field.name}" (fields: ${queryFields.join(', ')})`, term.field.position);
  }
  const field = name as Field;
  if (field === 'status' || field === 'rule') return buildNumeric(field, term);
  if (field === 'severity') return buildSeverity(term);
  if (!term.quoted && /^[<>=]/.test(term.value)) fail(`${field} does not support comparisons`, term.position);
  if (field === 'ip') {
    const net = parseNetwork(term.value);
    if (!net) fail(`Bad IP address or CIDR range "${term.value}"`, term.position);
    return { kind: 'ip', cidr: formatNetwork(net) };
  }
  if (field === 'firewall') {
    if (!uuidPattern.test(term.value))
      fail(`firewall expects a firewall id (a UUID), got "${term.value}"`, term.position);
    return { kind: 'firewall', id: term.value.toLowerCase() };
  }
  if (field === 'path') return { kind: 'path', ...wildcard(term) };
  if (field === 'tag') return { kind: 'tag', ...wildcard(term) };
  const contains = containsFields[field];
  if (contains) return { kind: 'contains', field: contains, value: term.value };
  const equals = equalsFields[field];
  if (!equals) return fail(`Unknown field "${term.field.name}"`, term.field.position);
  const value = term.value.toLowerCase();
  if (field === 'action' && !(actions as readonly string[]).includes(value)) {
    fail(`action must be one of ${actions.join(', ')}, got "${term.value}"`, term.position);
  }
  if (field === 'country' && !/^[a-z]{2}$/.test(value)) {
    fail(`country expects a two-letter code, got "${term.value}"`, term.position);
  }
  return { kind: 'equals', field: equals, value };
}

/** Recursive descent over the tokens: or := and (OR and)*; and := unary (AND? unary)*; unary := -unary | (or) | term. */
function parseTokens(tokens: Token[]): QueryNode {
  let i = 0;
  let depth = 0;
  const spent = { terms: 0, ipTerms: 0, textTerms: 0 };
  /** Counts a term against the cost budget; past a limit, fails at the term that went over. */
  function spend(node: QueryNode, position: number): QueryNode {
    const over = (limit: QueryLimit, message: string) => fail(message, position, limit);
    if (++spent.terms > queryLimits.terms) over('terms', `Too many terms: at most ${queryLimits.terms} per query`);
    if (node.kind === 'ip' && ++spent.ipTerms > queryLimits.ipTerms)
      over('ipTerms', `Too many ip: terms: at most ${queryLimits.ipTerms} per query`);
    if (node.kind === 'text' || node.kind === 'contains') {
      if (++spent.textTerms > queryLimits.textTerms)
        over(
          'textTerms',
          `Too many text searches: at most ${queryLimits.textTerms} free-text, message: and ua: terms per query`,
        );
      if (node.value.length > queryLimits.textLength)
        over('textLength', `Text to search for is too long: at most ${queryLimits.textLength} characters`);
    }
    return node;
  }
  const peek = () => tokens[i];
  const startsTerm = (t: Token | undefined) =>
    t !== undefined && (t.type === 'term' || t.type === '(' || t.type === '-');

  function orExpr(): QueryNode {
    const first = peek();
    if (first?.type === 'OR') fail('OR must come between two terms', first.position);
    const children = [andExpr()];
    for (let t = peek(); t?.type === 'OR'; t = peek()) {
      i++;
      if (!startsTerm(peek())) fail('OR must be followed by a term', t.position);
      if (children.length >= queryLimits.orWidth)
        fail(`Too many alternatives: at most ${queryLimits.orWidth} joined by OR in one group`, t.position, 'orWidth');
      children.push(andExpr());
    }
    return children.length === 1 && children[0] ? children[0] : { kind: 'or', children };
  }

  function andExpr(): QueryNode {
    const children: QueryNode[] = [];
    for (let t = peek(); t && t.type !== ')' && t.type !== 'OR'; t = peek()) {
      if (t.type === 'AND') {
        if (children.length === 0) fail('AND must come between two terms', t.position);
        i++;
        if (!startsTerm(peek())) fail('AND must be followed by a term', t.position);
      }
      children.push(unary());
    }
    return children.length === 1 && children[0] ? children[0] : { kind: 'and', children };
  }

  function unary(): QueryNode {
    const t = peek();
    if (!t) return fail('Expected a term', 0);
    i++;
    if ((t.type === '-' || t.type === '(') && depth >= maxDepth) fail('Query nested too deeply', t.position);
    if (t.type === '-') {
      if (!startsTerm(peek())) fail('- must be followed by a term', t.position);
      depth++;
      const child = unary();
      depth--;
      return { kind: 'not', child };
    }
    if (t.type === '(') {
      if (peek()?.type === ')') fail('Empty parentheses', t.position);
      depth++;
      const inner = orExpr();
      depth--;
      if (peek()?.type !== ')') fail('Unclosed parenthesis', t.position);
      i++;
      return inner;
    }
    if (t.type === 'term') return spend(buildTerm(t), t.position);
    return fail(`Unexpected ${t.type}`, t.position);
  }

  const ast = orExpr();
  const rest = peek();
  if (rest) fail(rest.type === ')' ? 'Unexpected closing parenthesis' : `Unexpected ${rest.type}`, rest.position);
  return ast;
}

/** Parses an event query; pure, so the query bar can show the error and its position as the user types. */
export function parseQuery(text: string): ParseResult {
  try {
    return { ok: true, ast: parseTokens(tokenize(text)) };
  } catch (error) {
    if (error instanceof QuerySyntaxError)
      return {
        ok: false,
        error: {
          message: error.message,
          position: error.position,
          ...(error.limit ? { limit: error.limit } : {}),
        },
      };
    throw error;
  }
}
