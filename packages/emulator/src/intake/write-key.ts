/** Where the intake found a request's write key. */
export type WriteKeySource = 'authorization' | 'body';

/** The outcome of reading the write key from the `Authorization` header. */
export type AuthorizationKey =
  { kind: 'absent' } | { kind: 'key'; writeKey: string } | { kind: 'invalid'; message: string };

/**
 * Reads the write key from an `Authorization: Basic base64(writeKey:)` header, as the tracking API
 * takes it (the password part is empty and ignored). No header, or an empty user part, is `absent`:
 * the write key may then come in the body.
 *
 * @example
 * writeKeyFromAuthorization('Basic ' + Buffer.from('wk_123:').toString('base64')); // { kind: 'key', writeKey: 'wk_123' }
 */
export function writeKeyFromAuthorization(header: string | string[] | undefined): AuthorizationKey {
  if (header === undefined || header === '') return { kind: 'absent' };
  if (Array.isArray(header)) {
    return { kind: 'invalid', message: 'Send one Authorization header, not several.' };
  }
  const match = /^Basic\s+([A-Za-z0-9+/=_-]*)\s*$/i.exec(header);
  if (!match) {
    return {
      kind: 'invalid',
      message: 'The Authorization header must be "Basic " + base64(writeKey + ":"); other schemes are not accepted.',
    };
  }
  const decoded = Buffer.from(match[1] as string, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const writeKey = colon === -1 ? decoded : decoded.slice(0, colon);
  return writeKey.length === 0 ? { kind: 'absent' } : { kind: 'key', writeKey };
}

/**
 * Shows a write key in an error message without repeating a long value in full.
 *
 * @example
 * describeWriteKey('wk_0123456789abcdef'); // '"wk_012…" (19 characters)'
 */
export function describeWriteKey(writeKey: string): string {
  return writeKey.length <= 8 ? JSON.stringify(writeKey) : `"${writeKey.slice(0, 6)}…" (${writeKey.length} characters)`;
}
