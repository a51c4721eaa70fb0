import { and, eq, isNull, lt, ne } from 'drizzle-orm';
import type { Context } from 'hono';
import {
  Accepted,
  ActivateBody,
  ConfirmEmailBody,
  ForgotBody,
  LoginBody,
  RegisterBody,
  ResendActivationBody,
  ResetBody,
} from '../../contract/auth.ts';
import { Ok } from '../../contract/common.ts';
import { Me } from '../../contract/me.ts';
import type { AppEnv } from '../context.ts';
import { sessions } from '../db/schema/sessions.ts';
import { users } from '../db/schema/users.ts';
import { ApiError } from '../errors.ts';
import { body, createRouter, json, route } from '../router.ts';
import { checkCaptcha } from '../services/accounts/captcha.ts';
import { consumeToken, issueToken } from '../services/accounts/one-time-tokens.ts';
import { hashPassword, verifyPassword } from '../services/accounts/passwords.ts';
import { serialize } from '../services/accounts/profile.ts';
import { clearHits, enforce, hit, retryAfter } from '../services/accounts/rate-limit.ts';
import { clearSessionCookie, setSessionCookie } from '../services/accounts/session-cookie.ts';
import { recordActivity } from '../services/activity/record.ts';
import { deliver } from '../services/mail/mailer.ts';
import { isUniqueViolation } from '../services/shared/db-errors.ts';
import { hashToken, randomToken } from '../services/shared/tokens.ts';

const sameAnswer = { ok: true as const, message: 'If an account exists for this address, we have sent it a link.' };

/** Mail-sending calls are limited per IP and per address, so nobody can flood an inbox. */
async function limitMail(c: Context<AppEnv>, email: string): Promise<void> {
  const { db, config, now } = c.var.deps;
  const { perIp, perAddress, windowSeconds } = config.mail;
  const wait = await enforce(
    db,
    [
      { key: `mail:ip:${c.var.ip}`, limit: perIp },
      { key: `mail:address:${email}`, limit: perAddress },
    ],
    windowSeconds,
    now(),
  );
  if (wait !== null) {
    throw new ApiError(429, 'rate_limited', `Too many messages asked for; try again in ${Math.ceil(wait / 60)} min.`, {
      retryAfter: wait,
    });
  }
}

/** Registration, activation, sign-in and out, password reset, email confirmation. */
export const authRoutes = createRouter()
  .openapi(
    route('anonymous', {
      method: 'post',
      path: '/register',
      summary: 'Create an account; mails a single-use activation link valid 24 h',
      request: { body: body(RegisterBody) },
      responses: { 201: json(Accepted, 'Account created, activation mail sent') },
    }),
    async (c) => {
      const input = c.req.valid('json');
      const { db, now, config, mailer, log } = c.var.deps;
      await checkCaptcha(c.var.deps.captcha, c.var.ip, input.captchaToken, 'register');
      const answer = { ok: true as const, message: 'Check your mail for the activation link.' };
      // An address that already has an account gets the same answer (no account enumeration) and a
      // mail to its owner instead of an activation link.
      const alreadyRegistered = async () => {
        await deliver(mailer, log, {
          to: input.email,
          subject: 'Someone tried to create a Spaceguard account with your address',
          text: `Hello,\n\nSomeone tried to create a Spaceguard account with this address, which already has one.\nIf it was you, sign in at ${config.publicUrl}/auth/login or choose a new password at ${config.publicUrl}/auth/forgot.\nIf it was not you, ignore this message.\n`,
        });
        return c.json(answer, 201);
      };
      await limitMail(c, input.email);
      // Hash before looking the address up, so both answers take the same time.
      const passwordHash = await hashPassword(input.password);
      const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.email, input.email));
      if (existing) return alreadyRegistered();
      let token: string;
      try {
        token = await db.transaction(async (tx) => {
          const [user] = await tx
            .insert(users)
            .values({ name: input.name, email: input.email, passwordHash })
            .returning();
          if (!user) throw new Error('insert returned nothing');
          await recordActivity(
            tx,
            { ...c.var.actor, id: user.id, name: user.name },
            {
              action: 'user.register',
              objectType: 'user',
              objectId: user.id,
              change: { name: user.name, email: user.email },
            },
          );
          return issueToken(tx, user.id, 'activation', now());
        });
      } catch (error) {
        if (isUniqueViolation(error)) return alreadyRegistered();
        throw error;
      }
      await deliver(mailer, log, {
        to: input.email,
        subject: 'Activate your Spaceguard account',
        text: `Hello ${input.name},\n\nActivate your account within 24 hours:\n${config.publicUrl}/auth/activation/${token}\n\nIf you did not register, ignore this message.\n`,
      });
      return c.json(answer, 201);
    },
  )
  .openapi(
    route('anonymous', {
      method: 'post',
      path: '/activate',
      summary: 'Activate an account with the mailed token (single use, 24 h)',
      request: { body: body(ActivateBody) },
      responses: { 200: json(Ok, 'Account active; sign in next') },
    }),
    async (c) => {
      const { token } = c.req.valid('json');
      const { db, now } = c.var.deps;
      await db.transaction(async (tx) => {
        const row = await consumeToken(tx, token, 'activation', now());
        const [user] = await tx
          .update(users)
          .set({ activatedAt: now(), updatedAt: now() })
          .where(eq(users.id, row.userId))
          .returning();
        await recordActivity(
          tx,
          { ...c.var.actor, id: row.userId, name: user?.name ?? null },
          { action: 'user.activate', objectType: 'user', objectId: row.userId },
        );
      });
      return c.json({ ok: true as const }, 200);
    },
  )
  .openapi(
    route('anonymous', {
      method: 'post',
      path: '/activate/resend',
      summary: 'Mail a new activation link; same answer whether the address exists or not',
      request: { body: body(ResendActivationBody) },
      responses: { 200: json(Accepted, 'Done (or nothing to do)') },
    }),
    async (c) => {
      const input = c.req.valid('json');
      const { db, now, config, mailer, log } = c.var.deps;
      await checkCaptcha(c.var.deps.captcha, c.var.ip, input.captchaToken, 'register');
      await limitMail(c, input.email);
      const [user] = await db
        .select()
        .from(users)
        .where(and(eq(users.email, input.email), isNull(users.activatedAt)));
      if (user) {
        const token = await issueToken(db, user.id, 'activation', now());
        await deliver(mailer, log, {
          to: user.email,
          subject: 'Activate your Spaceguard account',
          text: `Hello ${user.name},\n\nActivate your account within 24 hours:\n${config.publicUrl}/auth/activation/${token}\n`,
        });
      }
      return c.json(sameAnswer, 200);
    },
  )
  .openapi(
    route('anonymous', {
      method: 'post',
      path: '/login',
      summary: 'Sign in; sets the session cookie. Rate limited per account and per IP',
      request: { body: body(LoginBody) },
      responses: { 200: json(Me, 'Signed in') },
    }),
    async (c) => {
      const input = c.req.valid('json');
      const { db, now, config } = c.var.deps;
      const at = now();
      const { perAccount, perAccountAllIps, perIp, windowSeconds } = config.signIn;
      const ipKey = `login:ip:${c.var.ip}`;
      // Failures count against the account from this address, so guessing elsewhere never locks its owner out,
      // and against the account from everywhere with a higher ceiling, against guessing spread over many addresses.
      const accountIpKey = `login:account-ip:${input.email}:${c.var.ip}`;
      const accountKey = `login:account:${input.email}`;
      const wait =
        (await retryAfter(db, ipKey, perIp, windowSeconds, at)) ??
        (await retryAfter(db, accountIpKey, perAccount, windowSeconds, at)) ??
        (await retryAfter(db, accountKey, perAccountAllIps, windowSeconds, at));
      if (wait !== null) {
        throw new ApiError(
          429,
          'rate_limited',
          `Too many sign-in attempts; try again in ${Math.ceil(wait / 60)} min.`,
          {
            retryAfter: wait,
          },
        );
      }
      await checkCaptcha(c.var.deps.captcha, c.var.ip, input.captchaToken, 'login');
      const [user] = await db.select().from(users).where(eq(users.email, input.email));
      const valid = await verifyPassword(user?.passwordHash, input.password);
      if (!user || !valid) {
        await db.transaction(async (tx) => {
          await hit(tx, ipKey, windowSeconds, at);
          await hit(tx, accountIpKey, windowSeconds, at);
          await hit(tx, accountKey, windowSeconds, at);
          await recordActivity(
            tx,
            { ...c.var.actor, id: user?.id ?? null, name: user?.name ?? null },
            {
              action: 'user.login_failed',
              objectType: 'user',
              objectId: user?.id ?? null,
              change: { email: input.email },
            },
          );
        });
        throw new ApiError(401, 'invalid_credentials', 'Wrong email or password.', {
          fields: { password: 'Wrong email or password.' },
        });
      }
      if (!user.activatedAt) {
        throw new ApiError(403, 'not_activated', 'Activate your account first; we can mail you a new link.', {
          fields: { email: 'This account is not activated yet.' },
        });
      }
      const token = randomToken();
      const expiresAt = new Date(at.getTime() + config.sessionDays * 86_400_000);
      await db.transaction(async (tx) => {
        await clearHits(tx, accountIpKey);
        await clearHits(tx, accountKey);
        // Housekeeping: this user's expired sessions go when a new one starts.
        await tx.delete(sessions).where(and(eq(sessions.userId, user.id), lt(sessions.expiresAt, at)));
        const [session] = await tx
          .insert(sessions)
          .values({
            userId: user.id,
            tokenHash: hashToken(token),
            ip: c.var.ip,
            userAgent: c.var.actor.userAgent,
            createdAt: at,
            lastSeenAt: at,
            expiresAt,
          })
          .returning({ id: sessions.id });
        await recordActivity(
          tx,
          { ...c.var.actor, id: user.id, name: user.name },
          { action: 'user.login', objectType: 'session', objectId: session?.id ?? null },
        );
      });
      setSessionCookie(c, token, expiresAt);
      return c.json(serialize.me(user), 200);
    },
  )
  .openapi(
    route('anonymous', {
      method: 'post',
      path: '/logout',
      summary: 'Sign out: ends this session and clears the cookie',
      responses: { 200: json(Ok, 'Signed out') },
    }),
    async (c) => {
      const session = c.var.session;
      if (session) {
        await c.var.deps.db.transaction(async (tx) => {
          await tx.delete(sessions).where(eq(sessions.id, session.id));
          await recordActivity(tx, c.var.actor, { action: 'user.logout', objectType: 'session', objectId: session.id });
        });
      }
      clearSessionCookie(c);
      return c.json({ ok: true as const }, 200);
    },
  )
  .openapi(
    route('anonymous', {
      method: 'post',
      path: '/forgot',
      summary: 'Mail a password reset link (single use, 1 h); same answer whether the address exists or not',
      request: { body: body(ForgotBody) },
      responses: { 200: json(Accepted, 'Done (or nothing to do)') },
    }),
    async (c) => {
      const input = c.req.valid('json');
      const { db, now, config, mailer, log } = c.var.deps;
      await checkCaptcha(c.var.deps.captcha, c.var.ip, input.captchaToken, 'forgot');
      await limitMail(c, input.email);
      const [user] = await db.select().from(users).where(eq(users.email, input.email));
      if (user) {
        const token = await db.transaction(async (tx) => {
          await recordActivity(
            tx,
            { ...c.var.actor, id: null, name: null },
            { action: 'user.reset_requested', objectType: 'user', objectId: user.id },
          );
          return issueToken(tx, user.id, 'reset', now());
        });
        await deliver(mailer, log, {
          to: user.email,
          subject: 'Reset your Spaceguard password',
          text: `Hello ${user.name},\n\nChoose a new password within one hour:\n${config.publicUrl}/auth/reset/${token}\n\nIf you did not ask for this, ignore this message.\n`,
        });
      }
      return c.json(sameAnswer, 200);
    },
  )
  .openapi(
    route('anonymous', {
      method: 'post',
      path: '/reset',
      summary: 'Set a new password with the mailed token; ends every other session',
      request: { body: body(ResetBody) },
      responses: { 200: json(Ok, 'Password changed') },
    }),
    async (c) => {
      const input = c.req.valid('json');
      const { db, now } = c.var.deps;
      const passwordHash = await hashPassword(input.password);
      await db.transaction(async (tx) => {
        const row = await consumeToken(tx, input.token, 'reset', now());
        const [user] = await tx.select().from(users).where(eq(users.id, row.userId));
        if (!user) throw new ApiError(404, 'token_invalid', 'This link is not valid.');
        // Proving control of the mailbox also activates a not-yet-activated account.
        await tx
          .update(users)
          .set({ passwordHash, activatedAt: user.activatedAt ?? now(), updatedAt: now() })
          .where(eq(users.id, user.id));
        const keep = c.var.session?.userId === user.id ? c.var.session.id : null;
        await tx
          .delete(sessions)
          .where(keep ? and(eq(sessions.userId, user.id), ne(sessions.id, keep)) : eq(sessions.userId, user.id));
        await clearHits(tx, `login:account:${user.email}`);
        await recordActivity(
          tx,
          { ...c.var.actor, id: user.id, name: user.name },
          { action: 'user.password_reset', objectType: 'user', objectId: user.id },
        );
      });
      return c.json({ ok: true as const }, 200);
    },
  )
  .openapi(
    route('anonymous', {
      method: 'post',
      path: '/confirm-email',
      summary: 'Confirm a new email address with the token mailed to it',
      request: { body: body(ConfirmEmailBody) },
      responses: { 200: json(Ok, 'Address changed') },
    }),
    async (c) => {
      const { token } = c.req.valid('json');
      const { db, now } = c.var.deps;
      try {
        await db.transaction(async (tx) => {
          const row = await consumeToken(tx, token, 'email_change', now());
          const email = row.data?.email;
          if (!email) throw new ApiError(404, 'token_invalid', 'This link is not valid.');
          const [before] = await tx.select().from(users).where(eq(users.id, row.userId));
          await tx.update(users).set({ email, pendingEmail: null, updatedAt: now() }).where(eq(users.id, row.userId));
          await recordActivity(
            tx,
            { ...c.var.actor, id: row.userId, name: before?.name ?? null },
            {
              action: 'user.email_change',
              objectType: 'user',
              objectId: row.userId,
              change: { from: before?.email, to: email },
            },
          );
        });
      } catch (error) {
        if (isUniqueViolation(error)) {
          throw new ApiError(409, 'email_taken', 'Another account now uses this address.');
        }
        throw error;
      }
      return c.json({ ok: true as const }, 200);
    },
  );
