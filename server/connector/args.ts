/** The command line of `npm run waf`, read into checked options (a bad one is refused before anything starts). */
import { parseArgs } from 'node:util';
import { Upstream } from '../../contract/firewall-settings.ts';
import { type Listen, parseListen } from './nginx-conf.ts';

/** What the connector runs with. */
export type ConnectorOptions = {
  api: string;
  token: string;
  listen: Listen;
  upstream: string | null;
  stateDir: string;
  pollSeconds: number;
};

/** How to call it, printed with every refusal. */
export const usage = `Usage: npm run waf -- --api http://127.0.0.1:4321 --token TOKEN --listen 127.0.0.1:8080 \\
                      [--upstream http://127.0.0.1:3000] [--state-dir DIR] [--poll-seconds 2]
  --token may instead come from SPACEGUARD_FIREWALL_TOKEN (keeps it out of the process list).
  CRS_DIR overrides where the OWASP CRS lives (/usr/share/modsecurity-crs).`;

/** Reads the arguments; throws an Error whose message says what is wrong. */
export function parseOptions(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): ConnectorOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      api: { type: 'string' },
      token: { type: 'string' },
      listen: { type: 'string' },
      upstream: { type: 'string' },
      'state-dir': { type: 'string' },
      'poll-seconds': { type: 'string' },
    },
    strict: true,
    allowPositionals: false,
  });
  const api = values.api ?? '';
  if (!/^https?:\/\/[^\s/]+\/?$/.test(api))
    throw new Error('--api must be the API origin, such as http://127.0.0.1:4321');
  const token = values.token ?? env.SPACEGUARD_FIREWALL_TOKEN ?? '';
  if (!/^\S{8,200}$/.test(token)) throw new Error('--token must be the firewall’s connector token');
  const listen = parseListen(values.listen ?? '');
  if (!listen) throw new Error('--listen must be host:port, such as 127.0.0.1:8080');
  let upstream: string | null = null;
  if (values.upstream !== undefined) {
    const parsed = Upstream.safeParse(values.upstream);
    if (!parsed.success) throw new Error('--upstream must be http://host:port or https://host:port, without a path');
    upstream = parsed.data;
  }
  const pollSeconds = Number(values['poll-seconds'] ?? '2');
  if (!Number.isFinite(pollSeconds) || pollSeconds < 0.1 || pollSeconds > 3600) {
    throw new Error('--poll-seconds must be a number of seconds between 0.1 and 3600');
  }
  return {
    api: api.replace(/\/$/, ''),
    token,
    listen,
    upstream,
    stateDir: values['state-dir'] ?? 'data/waf',
    pollSeconds,
  };
}
