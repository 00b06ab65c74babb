/**
 * The headers of a delivery request: `User-Agent`, `Content-Type: application/json`,
 * `Content-Length`, `Accept-Encoding: identity`, the endpoint's static headers, and `X-Signature`
 * when the source has a shared secret. Built per request (and again when an attempt's
 * `requestHeaders` is read), so no copy is kept per message.
 *
 * @example
 * requestHeaders('Segment.io/1.0', { Authorization: 'Bearer t' }, 120, 'a94a8f…');
 */
export function requestHeaders(
  userAgent: string,
  staticHeaders: Readonly<Record<string, string>>,
  bodyLength: number,
  signature: string | undefined,
): Record<string, string> {
  const headers: Record<string, string> = {
    'User-Agent': userAgent,
    'Content-Type': 'application/json',
    'Content-Length': String(bodyLength),
    'Accept-Encoding': 'identity',
  };
  for (const name in staticHeaders) headers[name] = staticHeaders[name] as string;
  if (signature !== undefined) headers['X-Signature'] = signature;
  return headers;
}
