/**
 * Signing up and in while signed out: register, activate, sign in, and the mailed links that reset a password or
 * send a new activation link. Signing out and the signed-in user live in session.ts.
 */
import type { ForgotBody, LoginBody, RegisterBody, ResetBody } from '../../contract/auth.ts';
import { call, client } from '../lib/api.ts';
import { adoptProfileColorMode } from './session.ts';

/** Creates an account; its activation link goes to the address given. */
export async function register(body: RegisterBody): Promise<void> {
  await call(client.auth.register.$post({ json: body }));
}

/** Activates an account with the token its mail carried. */
export async function activateAccount(token: string): Promise<void> {
  await call(client.auth.activate.$post({ json: { token } }));
}

/** Sends a new activation link; the answer (the same whether the address exists or not) is the message to show. */
export async function resendActivation(body: ForgotBody): Promise<string> {
  return (await call(client.auth.activate.resend.$post({ json: body }))).message;
}

/** Signs in; the profile's colour mode applies on this device and the user is the answer. */
export async function signIn(body: LoginBody) {
  const me = await call(client.auth.login.$post({ json: body }));
  adoptProfileColorMode(me);
  return me;
}

/** Asks for a reset link; the answer (the same whether the address exists or not) is the message to show. */
export async function askPasswordReset(body: ForgotBody): Promise<string> {
  return (await call(client.auth.forgot.$post({ json: body }))).message;
}

/** Chooses a new password with the mailed token; every other session of the user ends. */
export async function resetPassword(body: ResetBody): Promise<void> {
  await call(client.auth.reset.$post({ json: body }));
}
