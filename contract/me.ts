import { z } from 'zod';
import { Email, NewPassword } from './auth.ts';
import { Id, Timestamp } from './common.ts';

/** Colour mode preference, synced with the theme store. */
export const ColorMode = z.enum(['light', 'dark', 'system']).meta({ id: 'ColorMode' });
export type ColorMode = z.infer<typeof ColorMode>;

/** The signed-in user. */
export const Me = z
  .object({
    id: Id,
    name: z.string(),
    email: z.string(),
    pendingEmail: z.string().nullable(),
    colorMode: ColorMode,
    lastSpaceId: Id.nullable(),
    createdAt: Timestamp,
  })
  .meta({ id: 'Me' });
export type Me = z.infer<typeof Me>;

/** Profile changes; a password or email change needs the current password. */
export const UpdateMeBody = z
  .object({
    name: z.string().trim().min(1, 'Enter your name.').max(100, 'Use at most 100 characters.').optional(),
    colorMode: ColorMode.optional(),
    email: Email.optional(),
    newPassword: NewPassword.optional(),
    currentPassword: z.string().max(1000).optional(),
  })
  .strict()
  .meta({ id: 'UpdateMeBody' });
export type UpdateMeBody = z.input<typeof UpdateMeBody>;

export const Session = z
  .object({
    id: Id,
    createdAt: Timestamp,
    lastSeenAt: Timestamp,
    expiresAt: Timestamp,
    ip: z.string().nullable(),
    userAgent: z.string().nullable(),
    current: z.boolean(),
  })
  .meta({ id: 'Session' });
export type Session = z.infer<typeof Session>;
export const SessionList = z.object({ items: z.array(Session) }).meta({ id: 'SessionList' });

export const ApiToken = z
  .object({
    id: Id,
    name: z.string(),
    prefix: z.string(),
    createdAt: Timestamp,
    lastUsedAt: Timestamp.nullable(),
    expiresAt: Timestamp.nullable(),
  })
  .meta({ id: 'ApiToken' });
export type ApiToken = z.infer<typeof ApiToken>;
export const ApiTokenList = z.object({ items: z.array(ApiToken) }).meta({ id: 'ApiTokenList' });

export const CreateApiTokenBody = z
  .object({
    name: z.string().trim().min(1, 'Name the token.').max(100, 'Use at most 100 characters.'),
    expiresInDays: z.number().int().min(1).max(3650).optional(),
  })
  .meta({ id: 'CreateApiTokenBody' });
export type CreateApiTokenBody = z.input<typeof CreateApiTokenBody>;

/** A created token: its secret is shown once. */
export const CreatedApiToken = ApiToken.extend({ token: z.string() }).meta({ id: 'CreatedApiToken' });
export type CreatedApiToken = z.infer<typeof CreatedApiToken>;
