/** A new webhook secret: 32 random bytes from the browser's CSPRNG as 64 hex characters. */
export function generateSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
