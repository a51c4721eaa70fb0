import { createHash, randomBytes } from 'node:crypto';

/** A fresh random secret (256 bits, base64url), optionally with a readable prefix. */
export function randomToken(prefix = ''): string {
  return prefix + randomBytes(32).toString('base64url');
}

/** Secrets are stored as their SHA-256: they carry 256 bits, so no slow hash is needed. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
