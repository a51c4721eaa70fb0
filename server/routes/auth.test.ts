import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { activity } from '../db/schema/activity.ts';
import { oneTimeTokens } from '../db/schema/one-time-tokens.ts';
import { sessions } from '../db/schema/sessions.ts';
import { users } from '../db/schema/users.ts';
import { createTestApi, type TestApi } from '../test/harness.ts';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

let t: TestApi;
beforeAll(async () => {
  t = await createTestApi();
});
afterAll(async () => {
  await t.close();
});

describe('register and activate', () => {
  test('register mails a 24 h activation link; activation is single use; then sign in', async () => {
    const reg = await t.read(
      t.api().auth.register.$post({ json: { name: 'Ada', email: ' Ada@Example.com ', password: 'correct horse 42' } }),
    );
    expect(reg.status).toBe(201);
    const token = await t.lastToken('ada@example.com', '/auth/activation/');
    const before = await t.read(
      t.api().auth.login.$post({ json: { email: 'ada@example.com', password: 'correct horse 42' } }),
    );
    expect(before.status).toBe(403);
    expect(before.json.error.code).toBe('not_activated');
    expect((await t.read(t.api().auth.activate.$post({ json: { token } }))).status).toBe(200);
    const again = await t.read(t.api().auth.activate.$post({ json: { token } }));
    expect(again.status).toBe(409);
    expect(again.json.error.code).toBe('token_used');
    const login = await t.read(
      t.api().auth.login.$post({ json: { email: 'ADA@example.com', password: 'correct horse 42' } }),
    );
    expect(login.status).toBe(200);
    const setCookie = login.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/sg_session=/);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).not.toMatch(/Secure/i); // localhost
    // The session's length, counted by the browser from its own clock (no Expires date read against another clock).
    expect(setCookie).toContain(`Max-Age=${t.deps.config.sessionDays * 86_400}`);
    expect(setCookie).not.toMatch(/Expires=/i);
    const [stored] = await t.db.select().from(users).where(eq(users.email, 'ada@example.com'));
    expect(stored?.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  test('an expired activation token says so', async () => {
    await t.read(
      t.api().auth.register.$post({ json: { name: 'Old', email: 'old@example.com', password: 'correct horse 42' } }),
    );
    const token = await t.lastToken('old@example.com', '/auth/activation/');
    await t.db.update(oneTimeTokens).set({ expiresAt: new Date(Date.now() - 1000) });
    const res = await t.read(t.api().auth.activate.$post({ json: { token } }));
    expect(res.status).toBe(422);
    expect(res.json.error.code).toBe('token_expired');
    expect(res.json.error.fields.token).toBeTruthy();
    const resend = await t.read(t.api().auth.activate.resend.$post({ json: { email: 'old@example.com' } }));
    expect(resend.status).toBe(200);
    const fresh = await t.lastToken('old@example.com', '/auth/activation/');
    expect(fresh).not.toBe(token);
    expect((await t.read(t.api().auth.activate.$post({ json: { token: fresh } }))).status).toBe(200);
  });

  test('unknown token is 404, a taken address gets the same answer, weak password and bad email 400 naming the field', async () => {
    expect((await t.read(t.api().auth.activate.$post({ json: { token: 'x'.repeat(43) } }))).status).toBe(404);
    const fresh = await t.read(
      t
        .api()
        .auth.register.$post({ json: { name: 'N', email: 'nobody-yet@example.com', password: 'correct horse 42' } }),
    );
    const dup = await t.read(
      t.api().auth.register.$post({ json: { name: 'A', email: 'ada@example.com', password: 'another horse 42' } }),
    );
    // Same status and body whether the address is new or taken: registration does not reveal accounts.
    expect(dup.status).toBe(fresh.status);
    expect(dup.json).toEqual(fresh.json);
    // The owner of the address is told, and the existing account is untouched.
    const outbox = await t.raw('GET', '/api/dev/outbox');
    const subjects = outbox.json.items
      .filter((item: { to: string }) => item.to === 'ada@example.com')
      .map((item: { subject: string }) => item.subject);
    expect(subjects).toContain('Someone tried to create a Spaceguard account with your address');
    const login = await t.read(
      t.api().auth.login.$post({ json: { email: 'ada@example.com', password: 'correct horse 42' } }),
    );
    expect(login.status).toBe(200);
    const weak = await t.read(
      t.api().auth.register.$post({ json: { name: 'W', email: 'not-an-email', password: 'short' } }),
    );
    expect(weak.status).toBe(400);
    expect(Object.keys(weak.json.error.fields).sort()).toEqual(['email', 'password']);
    const missing = await t.raw('POST', '/api/auth/register', { body: {} });
    expect(missing.json.error.fields).toMatchObject({
      name: 'This field is required.',
      email: 'This field is required.',
    });
    const [count] = await t.db.select().from(users).where(eq(users.email, 'not-an-email'));
    expect(count).toBeUndefined();
  });

  test('captcha failure names captchaToken', async () => {
    const res = await t.read(
      t.api().auth.login.$post({ json: { email: 'ada@example.com', password: 'x', captchaToken: 'bad' } }),
    );
    expect(res.status).toBe(400);
    expect(res.json.error.fields.captchaToken).toBeTruthy();
  });
});

describe('sign in, out and reset', () => {
  test('failed sign-ins are audited and rate limited per account and address with Retry-After', async () => {
    await t.signUp('rate@example.com');
    for (let i = 0; i < 5; i++) {
      const res = await t.read(
        t.api().auth.login.$post({ json: { email: 'rate@example.com', password: 'wrong password 1' } }),
      );
      expect(res.status).toBe(401);
    }
    const blocked = await t.read(
      t.api().auth.login.$post({ json: { email: 'rate@example.com', password: 'correct horse 42' } }),
    );
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    const failed = await t.db.select().from(activity).where(eq(activity.action, 'user.login_failed'));
    expect(failed.length).toBeGreaterThanOrEqual(5);
    expect(failed[0]?.ip).toBe('203.0.113.7');
  });

  test('failures from one address never lock the owner out from another', async () => {
    await t.signUp('target@example.com');
    const from = (ip: string, password: string) =>
      t.read(
        t
          .api({ headers: { 'x-forwarded-for': ip } })
          .auth.login.$post({ json: { email: 'target@example.com', password } }),
      );
    for (let i = 0; i < 5; i++) expect((await from('198.51.100.66', 'guess guess 1')).status).toBe(401);
    expect((await from('198.51.100.66', 'correct horse 42')).status).toBe(429);
    // The owner, elsewhere, signs in as usual.
    expect((await from('192.0.2.10', 'correct horse 42')).status).toBe(200);
  });

  test('guessing one account from many addresses meets the account-wide ceiling', async () => {
    const { createTestApi } = await import('../test/harness.ts');
    const limited = await createTestApi({
      config: { signIn: { perAccount: 5, perAccountAllIps: 4, perIp: 30, windowSeconds: 900 } },
    });
    try {
      await limited.signUp('spread@example.com');
      const from = (ip: string, password: string) =>
        limited.read(
          limited
            .api({ headers: { 'x-forwarded-for': ip } })
            .auth.login.$post({ json: { email: 'spread@example.com', password } }),
        );
      for (let i = 0; i < 4; i++) expect((await from(`198.51.100.${i + 1}`, 'guess guess 1')).status).toBe(401);
      const blocked = await from('198.51.100.99', 'guess guess 1');
      expect(blocked.status).toBe(429);
      expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });

  test('rate limited per IP too', async () => {
    const limited = await createTestApiWithIpLimit();
    try {
      for (let i = 0; i < 3; i++) {
        await limited.read(
          limited.api().auth.login.$post({ json: { email: `n${i}@example.com`, password: 'nope nope 1' } }),
        );
      }
      const res = await limited.read(
        limited.api().auth.login.$post({ json: { email: 'other@example.com', password: 'nope nope 1' } }),
      );
      expect(res.status).toBe(429);
      expect(res.json.error.code).toBe('rate_limited');
      expect(res.headers.get('retry-after')).toBeTruthy();
    } finally {
      await limited.close();
    }
  });

  test('forgot answers the same either way; reset is single use, 1 h, and ends other sessions', async () => {
    const a = await t.signUp('reset@example.com');
    const b = await t.signIn('reset@example.com');
    const known = await t.read(t.api().auth.forgot.$post({ json: { email: 'reset@example.com' } }));
    const unknown = await t.read(t.api().auth.forgot.$post({ json: { email: 'nobody@example.com' } }));
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(unknown.json).toEqual(known.json);
    const token = await t.lastToken('reset@example.com', '/auth/reset/');
    const weak = await t.read(t.api().auth.reset.$post({ json: { token, password: 'short' } }));
    expect(weak.status).toBe(400);
    expect(weak.json.error.fields.password).toBeTruthy();
    const ok = await t.read(t.api(b.cookie).auth.reset.$post({ json: { token, password: 'a new password 7' } }));
    expect(ok.status).toBe(200);
    expect((await t.read(t.api(a.cookie).me.$get())).status).toBe(401);
    expect((await t.read(t.api(b.cookie).me.$get())).status).toBe(200);
    expect((await t.read(t.api().auth.reset.$post({ json: { token, password: 'another pass 8' } }))).status).toBe(409);
    expect(
      (await t.read(t.api().auth.login.$post({ json: { email: 'reset@example.com', password: 'a new password 7' } })))
        .status,
    ).toBe(200);
  });

  test('an expired reset token is refused', async () => {
    await t.read(t.api().auth.forgot.$post({ json: { email: 'ada@example.com' } }));
    const token = await t.lastToken('ada@example.com', '/auth/reset/');
    await t.db
      .update(oneTimeTokens)
      .set({ expiresAt: new Date(Date.now() - 1) })
      .where(eq(oneTimeTokens.kind, 'reset'));
    const res = await t.read(t.api().auth.reset.$post({ json: { token, password: 'a new password 7' } }));
    expect(res.status).toBe(422);
  });

  test('logout ends the session', async () => {
    const { cookie } = await t.signIn('ada@example.com');
    const before = (await t.db.select().from(sessions)).length;
    expect((await t.read(t.api(cookie).auth.logout.$post())).status).toBe(200);
    expect((await t.db.select().from(sessions)).length).toBe(before - 1);
    expect((await t.read(t.api(cookie).me.$get())).status).toBe(401);
  });

  test('state-changing cookie calls from a foreign or missing Origin are refused', async () => {
    const { cookie } = await t.signIn('ada@example.com');
    const foreign = await t.read(
      t.api({ cookie, origin: 'https://evil.example' }).me.$patch({ json: { name: 'Eve' } }),
    );
    expect(foreign.status).toBe(403);
    expect(foreign.json.error.code).toBe('foreign_origin');
    const none = await t.read(t.api({ cookie, origin: null }).me.$patch({ json: { name: 'Eve' } }));
    expect(none.status).toBe(403);
    const ok = await t.read(t.api(cookie).me.$patch({ json: { name: 'Ada L.' } }));
    expect(ok.status).toBe(200);
  });

  test('malformed JSON and oversized bodies answer 400 and 413 in the error shape', async () => {
    const bad = await t.raw('POST', '/api/auth/login', { body: '{"email":' });
    expect(bad.status).toBe(400);
    expect(bad.json.error.code).toBe('bad_request');
    const big = await t.read(
      t.api().auth.register.$post({
        json: { name: 'x'.repeat(2 * 1024 * 1024), email: 'big@example.com', password: 'correct horse 42' },
      }),
    );
    expect(big.status).toBe(413);
    expect(big.json.error.code).toBe('payload_too_large');
  });
});

async function createTestApiWithIpLimit() {
  const { createTestApi } = await import('../test/harness.ts');
  return createTestApi({
    config: { signIn: { perAccount: 100, perAccountAllIps: 100, perIp: 3, windowSeconds: 900 } },
  });
}

describe('mail flooding', () => {
  test('forgot is limited per address with Retry-After, the same whether the address exists or not', async () => {
    for (let i = 0; i < 3; i++) {
      expect((await t.read(t.api().auth.forgot.$post({ json: { email: 'flood@example.com' } }))).status).toBe(200);
    }
    const blocked = await t.read(t.api().auth.forgot.$post({ json: { email: 'flood@example.com' } }));
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
