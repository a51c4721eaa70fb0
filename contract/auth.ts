import { z } from 'zod';
import { passwordRules } from './constants/passwords.ts';
import { passwordProblem } from './passwords.ts';

/** Addresses are compared lower-cased and trimmed. */
export const Email = z
  .string()
  .trim()
  .max(254, 'Email is too long.')
  .pipe(z.email('Enter a valid email address.'))
  .transform((e) => e.toLowerCase());

/** Password strength rules, shared so the register form shows the same verdict as the API. */
/** A new password that passes the strength rules. */
export const NewPassword = z
  .string()
  .max(passwordRules.maxLength, `Use at most ${passwordRules.maxLength} characters.`)
  .superRefine((value, ctx) => {
    const problem = passwordProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

const Name = z.string().trim().min(1, 'Enter your name.').max(100, 'Use at most 100 characters.');
const CaptchaToken = z.string().max(4096).optional();
const OneTimeToken = z.string().min(10).max(200);

export const RegisterBody = z
  .object({ name: Name, email: Email, password: NewPassword, captchaToken: CaptchaToken })
  .meta({ id: 'RegisterBody' });
export type RegisterBody = z.input<typeof RegisterBody>;

export const LoginBody = z
  .object({ email: Email, password: z.string().min(1, 'Enter your password.').max(1000), captchaToken: CaptchaToken })
  .meta({ id: 'LoginBody' });
export type LoginBody = z.input<typeof LoginBody>;

export const ActivateBody = z.object({ token: OneTimeToken }).meta({ id: 'ActivateBody' });
export type ActivateBody = z.input<typeof ActivateBody>;

export const ResendActivationBody = z
  .object({ email: Email, captchaToken: CaptchaToken })
  .meta({ id: 'ResendActivationBody' });

export const ForgotBody = z.object({ email: Email, captchaToken: CaptchaToken }).meta({ id: 'ForgotBody' });
export type ForgotBody = z.input<typeof ForgotBody>;

export const ResetBody = z.object({ token: OneTimeToken, password: NewPassword }).meta({ id: 'ResetBody' });
export type ResetBody = z.input<typeof ResetBody>;

export const ConfirmEmailBody = z.object({ token: OneTimeToken }).meta({ id: 'ConfirmEmailBody' });

/** Same answer whatever happened, so existence of an address does not leak. */
export const Accepted = z.object({ ok: z.literal(true), message: z.string() }).meta({ id: 'Accepted' });
