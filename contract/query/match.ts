import type { QueryNode } from './ast.ts';
import { type IpAddress, type IpNetwork, networkContains, parseEventIp, parseNetwork } from './ip.ts';

/** The event fields a query reads; absent and null mean the event has no such value. */
export type QueryableEvent = {
  ip?: string | null | undefined;
  country?: string | null | undefined;
  method?: string | null | undefined;
  host?: string | null | undefined;
  path?: string | null | undefined;
  status?: number | null | undefined;
  action?: string | null | undefined;
  severity?: string | null | undefined;
  ruleIds?: readonly number[] | null | undefined;
  tags?: readonly string[] | null | undefined;
  message?: string | null | undefined;
  userAgent?: string | null | undefined;
  firewallId?: string | null | undefined;
};

/** Parsed networks per ip node, so a rule evaluated on a stream parses its range once. */
const networks = new WeakMap<object, IpNetwork | null>();

function networkOf(node: { cidr: string }): IpNetwork | null {
  let net = networks.get(node);
  if (net === undefined) {
    net = parseNetwork(node.cidr);
    networks.set(node, net);
  }
  return net;
}

/** Parsed client addresses per event, so a batch tried against many `ip:` terms parses each address once. */
const addresses = new WeakMap<object, IpAddress | null>();

function addressOf(event: QueryableEvent): IpAddress | null {
  if (event.ip == null) return null;
  let address = addresses.get(event);
  if (address === undefined) {
    address = parseEventIp(event.ip);
    addresses.set(event, address);
  }
  return address;
}

const containsText = (haystack: string | null | undefined, needle: string) =>
  haystack?.toLowerCase().includes(needle.toLowerCase()) ?? false;

function compare(n: number, op: string, value: number): boolean {
  if (op === '>') return n > value;
  if (op === '>=') return n >= value;
  if (op === '<') return n < value;
  if (op === '<=') return n <= value;
  return n === value;
}

/** Evaluates a parsed query against one event in memory, with the same meaning as the SQL compiler. */
export function matchesEvent(ast: QueryNode, event: QueryableEvent): boolean {
  switch (ast.kind) {
    case 'and':
      return ast.children.every((child) => matchesEvent(child, event));
    case 'or':
      return ast.children.some((child) => matchesEvent(child, event));
    case 'not':
      return !matchesEvent(ast.child, event);
    case 'text':
      return [event.message, event.path, event.host, event.userAgent].some((field) => containsText(field, ast.value));
    case 'compare':
      if (ast.field === 'status') return event.status != null && compare(event.status, ast.op, ast.value);
      return (event.ruleIds ?? []).some((id) => compare(id, ast.op, ast.value));
    case 'range': {
      const within = (n: number) => n >= ast.from && n <= ast.to;
      if (ast.field === 'status') return event.status != null && within(event.status);
      return (event.ruleIds ?? []).some(within);
    }
    case 'severity':
      return event.severity != null && (ast.levels as readonly string[]).includes(event.severity);
    case 'ip': {
      const net = networkOf(ast);
      const address = addressOf(event);
      return net !== null && address !== null && networkContains(net, address);
    }
    case 'equals': {
      const value = event[ast.field];
      return value != null && value.toLowerCase() === ast.value;
    }
    case 'contains':
      return containsText(event[ast.field], ast.value);
    case 'path':
      return event.path != null && (ast.prefix ? event.path.startsWith(ast.value) : event.path === ast.value);
    case 'tag':
      return (event.tags ?? []).some((tag) => (ast.prefix ? tag.startsWith(ast.value) : tag === ast.value));
    case 'firewall':
      return event.firewallId?.toLowerCase() === ast.id;
  }
}
