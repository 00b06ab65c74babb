/**
 * Request headers in any common shape: a Fetch `Headers`, or Node's `IncomingHttpHeaders` (lowercase keys).
 *
 * @example
 * const headers: HeadersLike = { 'content-type': 'application/json', 'x-signature': sign(body, secret) };
 * const response = await receiver.handle({ method: 'POST', headers, rawBody: body });
 */
export type HeadersLike = { get(name: string): string | null } | Record<string, string | readonly string[] | undefined>;

/**
 * Reads one header (case-insensitive) from any header shape. A repeated header comes back as an
 * array (so that a duplicated `X-Signature` is refused, not half-read).
 *
 * @example
 * getHeader(req.headers, 'X-Signature'); // Node: found under 'x-signature'
 * getHeader(request.headers, 'content-type'); // Fetch Headers
 */
export function getHeader(headers: HeadersLike, name: string): string | readonly string[] | undefined {
  if (typeof (headers as { get?: unknown }).get === 'function') {
    return (headers as { get(n: string): string | null }).get(name) ?? undefined;
  }
  const record = headers as Record<string, string | readonly string[] | undefined>;
  const lower = name.toLowerCase();
  // `?? undefined`: a header given as `null` by plain JavaScript (some serverless events do) is absent.
  if (lower in record) return record[lower] ?? undefined;
  for (const key of Object.keys(record)) if (key.toLowerCase() === lower) return record[key] ?? undefined;
  return undefined;
}
