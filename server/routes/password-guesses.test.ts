import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { oneTimeTokens } from '../db/schema/one-time-tokens.ts';
import { hashPassword } from '../services/accounts/passwords.ts';
import { createTestApi, type TestApi } from '../test/harness.ts';

// Counts the (deliberately slow) password hashes, to show which answers come before one.
vi.mock('../services/accounts/passwords.ts', async (original) => {
  const real = await original<typeof import('../services/accounts/passwords.ts')>();
  return { ...real, hashPassword: vi.fn(real.hashPassword) };
});

vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

// Small ceilings: 2 failures for one account from one address, 3 for the account from everywhere, 3 per address.
const limits = { perAccount: 2, perAccountAllIps: 3, perIp: 3, windowSeconds: 900 };
const password = 'correct horse 42';

let t: TestApi;
beforeAll(async () => {
  t = await createTestApi({
    config: { signIn: limits, mail: { perIp: 1000, perAddress: 1000, windowSeconds: 3600 } },
  });
});
afterAll(async () => {
  await t.close();
});
beforeEach(() => {
  vi.mocked(hashPassword).mockClear();
});

/** A reset link token for an account, fresh from the outbox. */
async function resetToken(email: string): Promise<string> {
  expect((await t.read(t.api().auth.forgot.$post({ json: { email } }))).status).toBe(200);
  return t.lastToken(email, '/auth/reset/');
}

function reset(token: string, ip: string, newPassword = 'a new password 7') {
  return t.read(
    t.api({ headers: { 'x-forwarded-for': ip } }).auth.reset.$post({ json: { token, password: newPassword } }),
  );
}

function expectLimited(res: Awaited<ReturnType<TestApi['read']>>, message: string) {
  expect(res.status).toBe(429);
  expect(res.json.error).toEqual({ code: 'rate_limited', message });
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
}

describe('password reset', () => {
  let used: string;
  let expired: string;
  beforeAll(async () => {
    await t.signUp('checked@example.com');
    used = await resetToken('checked@example.com');
    expect((await reset(used, '192.0.2.1')).status).toBe(200);
    expired = await resetToken('checked@example.com');
    await t.db
      .update(oneTimeTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(oneTimeTokens.kind, 'reset'));
  });

  test.each([
    ['an unknown token', 404, 'token_invalid', () => 'no-such-token-0123456789'],
    ['a used token', 409, 'token_used', () => used],
    ['an expired token', 422, 'token_expired', () => expired],
  ])('%s answers %i %s without hashing the new password', async (_label, status, code, token) => {
    const res = await reset(token(), '192.0.2.2');
    expect(res.status).toBe(status);
    expect(res.json.error.code).toBe(code);
    expect(hashPassword).not.toHaveBeenCalled();
  });

  test('a valid token hashes the new password once', async () => {
    await t.signUp('valid@example.com');
    vi.mocked(hashPassword).mockClear();
    expect((await reset(await resetToken('valid@example.com'), '192.0.2.3')).status).toBe(200);
    expect(hashPassword).toHaveBeenCalledTimes(1);
  });

  const limited = 'Too many password reset attempts; try again in 15 min.';

  test('failed resets are limited per address with Retry-After; another address goes on', async () => {
    for (let i = 0; i < 3; i++) expect((await reset(`guessed-token-${i}-0123456789`, '198.51.100.1')).status).toBe(404);
    expectLimited(await reset('guessed-token-3-0123456789', '198.51.100.1'), limited);
    expect((await reset('guessed-token-4-0123456789', '198.51.100.2')).status).toBe(404);
  });

  test('failed resets of one account from one address stop its resets from there, not from elsewhere', async () => {
    await t.signUp('one-ip@example.com');
    const old = await resetToken('one-ip@example.com');
    expect((await reset(old, '198.51.100.10')).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await reset(old, '198.51.100.11')).status).toBe(409);
    const fresh = await resetToken('one-ip@example.com');
    expectLimited(await reset(fresh, '198.51.100.11'), limited);
    expect((await reset(fresh, '198.51.100.12')).status).toBe(200);
  });

  test('failed resets of one account from many addresses meet the account-wide ceiling', async () => {
    await t.signUp('spread@example.com');
    const old = await resetToken('spread@example.com');
    expect((await reset(old, '198.51.100.20')).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await reset(old, `198.51.100.${21 + i}`)).status).toBe(409);
    expectLimited(await reset(await resetToken('spread@example.com'), '198.51.100.29'), limited);
  });
});

// Forgot sends mail, so the mail limits (per address and per account, shared with register and resend) hold it.
describe('forgot', () => {
  test('is limited per address and per account with Retry-After', async () => {
    const own = await createTestApi({ config: { mail: { perIp: 2, perAddress: 2, windowSeconds: 3600 } } });
    try {
      const forgot = (email: string, ip: string) =>
        own.read(own.api({ headers: { 'x-forwarded-for': ip } }).auth.forgot.$post({ json: { email } }));
      const message = 'Too many messages asked for; try again in 60 min.';
      for (const ip of ['203.0.113.1', '203.0.113.2']) expect((await forgot('a@example.com', ip)).status).toBe(200);
      expectLimited(await forgot('a@example.com', '203.0.113.3'), message);
      expect((await forgot('b@example.com', '203.0.113.1')).status).toBe(200);
      expectLimited(await forgot('c@example.com', '203.0.113.1'), message);
    } finally {
      await own.close();
    }
  });
});

describe('PATCH /api/me with the current password', () => {
  function change(cookie: string, currentPassword: string, ip: string) {
    return t.read(
      t
        .api({ cookie, headers: { 'x-forwarded-for': ip } })
        .me.$patch({ json: { currentPassword, newPassword: 'another password 9' } }),
    );
  }
  const limited = 'Too many wrong current passwords; try again in 15 min.';

  test('wrong guesses from one address stop the change from there, not from elsewhere', async () => {
    const me = await t.signUp('guess-one@example.com');
    for (let i = 0; i < 2; i++) {
      const wrong = await change(me.cookie, `guess number ${i}`, '198.51.100.40');
      expect(wrong.status).toBe(400);
      expect(wrong.json.error.fields.currentPassword).toBe('The current password is wrong.');
    }
    expectLimited(await change(me.cookie, password, '198.51.100.40'), limited);
    expect((await change(me.cookie, password, '198.51.100.41')).status).toBe(200);
  });

  test('wrong guesses from many addresses meet the account-wide ceiling', async () => {
    const me = await t.signUp('guess-many@example.com');
    for (let i = 0; i < 3; i++)
      expect((await change(me.cookie, 'guess guess', `198.51.100.${50 + i}`)).status).toBe(400);
    expectLimited(await change(me.cookie, password, '198.51.100.59'), limited);
  });

  test('wrong guesses from one address over several accounts meet the per-address ceiling', async () => {
    for (let i = 0; i < 3; i++) {
      const me = await t.signUp(`guess-ip-${i}@example.com`);
      expect((await change(me.cookie, 'guess guess', '198.51.100.60')).status).toBe(400);
    }
    const next = await t.signUp('guess-ip-3@example.com');
    expectLimited(await change(next.cookie, password, '198.51.100.60'), limited);
  });

  test('a change without a password check is never limited', async () => {
    const me = await t.signUp('rename@example.com');
    for (let i = 0; i < 3; i++)
      expect((await change(me.cookie, 'guess guess', `198.51.100.${70 + i}`)).status).toBe(400);
    expectLimited(await change(me.cookie, password, '198.51.100.79'), limited);
    const rename = await t.read(
      t
        .api({ cookie: me.cookie, headers: { 'x-forwarded-for': '198.51.100.70' } })
        .me.$patch({ json: { name: 'Renamed' } }),
    );
    expect(rename.status).toBe(200);
  });
});
