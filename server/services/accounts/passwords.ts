import type { Algorithm } from '@node-rs/argon2';
import { hash, verify } from '@node-rs/argon2';

/** argon2id with the OWASP baseline: 19 MiB memory, 2 passes, 1 lane, 32-byte output. */
export const argon2Parameters = {
  algorithm: 2 as Algorithm, // Algorithm.Argon2id (a const enum, so spelled as its value)
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
  outputLen: 32,
} as const;

/** Hashes a password for storage. */
export function hashPassword(password: string): Promise<string> {
  return hash(password, argon2Parameters);
}

let dummyHash: Promise<string> | undefined;

/** Verifies a password; with no stored hash it still spends the time, so timing does not reveal accounts. */
export async function verifyPassword(stored: string | null | undefined, password: string): Promise<boolean> {
  if (!stored) {
    dummyHash ??= hashPassword('spaceguard-dummy-password');
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  return verify(stored, password).catch(() => false);
}
