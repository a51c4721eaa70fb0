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
import { caller } from '../caller.ts';
import { body, createRouter, json, route } from '../router.ts';
import {
  activate,
  confirmEmail,
  register,
  requestPasswordReset,
  resendActivation,
  resetPassword,
} from '../services/accounts/registration.ts';
import { clearSessionCookie, setSessionCookie } from '../services/accounts/session-cookie.ts';
import { signIn, signOut } from '../services/accounts/sign-in.ts';

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
    async (c) => c.json(await register(caller(c), c.req.valid('json')), 201),
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
      await activate(caller(c), c.req.valid('json').token);
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
    async (c) => c.json(await resendActivation(caller(c), c.req.valid('json')), 200),
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
      const { me, secret, startedAt, expiresAt } = await signIn(caller(c), c.req.valid('json'));
      setSessionCookie(c, secret, startedAt, expiresAt);
      return c.json(me, 200);
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
      await signOut(caller(c));
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
    async (c) => c.json(await requestPasswordReset(caller(c), c.req.valid('json')), 200),
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
      await resetPassword(caller(c), c.req.valid('json'));
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
      await confirmEmail(caller(c), c.req.valid('json'));
      return c.json({ ok: true as const }, 200);
    },
  );
