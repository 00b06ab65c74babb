/** One request header: its name as sent (case kept) and its value. */
export type HeaderLine = readonly [name: string, value: string];

/**
 * A mapping's headers as Segment's request client (`@segment/actions-core`, over node-fetch's
 * `Headers`) writes them: names that differ only in case make one header (its values joined with
 * `, `), sorted by their first spelling in code-unit order (so `X-B` comes before `x-a`), then
 * lower-cased.
 *
 * @example
 * segmentHeaderOrder({ 'X-B': 'b', 'x-a': 'a', Zed: 'z' }); // [['x-b', 'b'], ['zed', 'z'], ['x-a', 'a']]
 */
export function segmentHeaderOrder(headers: Readonly<Record<string, string>>): HeaderLine[] {
  const groups = new Map<string, { first: string; values: string[] }>();
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    const group = groups.get(lower);
    if (group === undefined) groups.set(lower, { first: name, values: [value] });
    else group.values.push(value);
  }
  return [...groups.values()]
    .sort((a, b) => (a.first < b.first ? -1 : a.first > b.first ? 1 : 0))
    .map((g) => [g.first.toLowerCase(), g.values.join(', ')] as const);
}

/**
 * The header block of a Webhooks (Actions) request, names, case and order as Segment's destination
 * code (3.387.0 through `@segment/actions-core` and node-fetch) writes them, before the HTTP client
 * adds `Host` and `Connection`:
 *
 * 1. `user-agent: Segment (Actions)`
 * 2. `x-signature`, when the request is signed
 * 3. the mapping's headers (`segmentHeaderOrder`); a mapped `content-type` keeps its place but says
 *    `application/json` when there is a body (Segment's client sets it over the mapped value)
 * 4. `content-type: application/json` when there is a body and the mapping set none
 * 5. `Accept: *` + `/*` unless the mapping set `accept`
 * 6. `Content-Length` (`0` for the empty request of a mapping whose `data` came out empty)
 * 7. `Accept-Encoding: gzip,deflate` unless the mapping set `accept-encoding`
 *
 * The delivery engine sends these lines as given, in this order and case.
 *
 * @example
 * actionsRequestHeaders(endpoint, 120, 'a94a8f…');
 * // [['user-agent', 'Segment (Actions)'], ['x-signature', 'a94a8f…'], ['content-type', 'application/json'], ['Accept', '*' + '/*'], ['Content-Length', '120'], ['Accept-Encoding', 'gzip,deflate']]
 */
export function actionsRequestHeaders(
  // What it reads of an ActionsEndpoint (actions-delivery.ts, which imports this file's HeaderLine).
  endpoint: { readonly userAgent: string; readonly mappedHeaders: readonly HeaderLine[] },
  bodyLength: number,
  signature: string | undefined,
): HeaderLine[] {
  const json = bodyLength > 0;
  const lines: HeaderLine[] = [['user-agent', endpoint.userAgent]];
  if (signature !== undefined) lines.push(['x-signature', signature]);
  const has = new Set<string>();
  for (const [name, value] of endpoint.mappedHeaders) {
    has.add(name);
    lines.push([name, name === 'content-type' && json ? 'application/json' : value]);
  }
  if (json && !has.has('content-type')) lines.push(['content-type', 'application/json']);
  if (!has.has('accept')) lines.push(['Accept', '*/*']);
  lines.push(['Content-Length', String(bodyLength)]);
  if (!has.has('accept-encoding')) lines.push(['Accept-Encoding', 'gzip,deflate']);
  return lines;
}
