/** HTTP calls the benches make: JSON in and out, and a session through the real sign-up and sign-in. */

/** Anything that answers like fetch: fetch itself against a listening server, or an app's `request()` (no socket). */
export type Fetcher = (url: string, init?: RequestInit) => Promise<Response>;

/** Sends a JSON body with an Origin (state-changing cookie calls need one); the answer's body is left unread. */
export function sendJson(
  fetcher: Fetcher,
  method: string,
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  const origin = new URL(url).origin;
  return fetcher(url, {
    method,
    headers: { 'content-type': 'application/json', origin, ...headers },
    body: JSON.stringify(body),
  });
}

/** GETs a URL and answers its JSON; anything but 200 throws with the start of the body. */
export async function getJson<T>(fetcher: Fetcher, url: string, headers: Record<string, string> = {}): Promise<T> {
  const res = await fetcher(url, { headers });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`GET ${url}: ${res.status} ${text.slice(0, 200)}`);
  return JSON.parse(text) as T;
}

/** Signs in through `POST /api/auth/login`; answers the session cookie (`name=value`) to send back. */
export async function signIn(fetcher: Fetcher, base: string, email: string, password: string): Promise<string> {
  const res = await sendJson(fetcher, 'POST', `${base}/api/auth/login`, { email, password });
  const text = await res.text();
  const cookie = res.headers.get('set-cookie')?.split(';')[0];
  if (res.status !== 200 || !cookie) throw new Error(`sign-in ${email}: ${res.status} ${text.slice(0, 200)}`);
  return cookie;
}

/** Registers and activates an account through the API and its development outbox, then signs in. */
export async function signUp(fetcher: Fetcher, base: string, email: string, password: string): Promise<string> {
  await sendJson(fetcher, 'POST', `${base}/api/auth/register`, { name: 'Bench', email, password });
  const outbox = await getJson<{ items: { to: string; text: string }[] }>(fetcher, `${base}/api/dev/outbox`);
  const token = outbox.items.find((item) => item.to === email)?.text.match(/activation\/(\S+)/)?.[1];
  await sendJson(fetcher, 'POST', `${base}/api/auth/activate`, { token });
  return signIn(fetcher, base, email, password);
}
