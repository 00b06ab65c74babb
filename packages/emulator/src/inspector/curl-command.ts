function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * A curl command that sends a delivery's exact body again to an endpoint. The signature is computed
 * by the shell from `$HOOKGATE_SECRET` (openssl), so neither the secret nor a full signature is in it.
 *
 * @example
 * curlCommand('{"type":"track"}', 'http://127.0.0.1:3000/hook', { 'user-agent': 'Segment.io/1.0' }, true);
 */
export function curlCommand(body: string, url: string, headers: Record<string, string>, signed: boolean): string {
  // Without the secret, openssl would sign with an empty key and the receiver would answer 401 for a
  // reason the user cannot see: the command stops first, saying what to set.
  const lines = signed
    ? [`: "\${HOOKGATE_SECRET:?set HOOKGATE_SECRET to the shared secret of the source first (nothing was sent)}"`]
    : [];
  lines.push(`BODY=${shellQuote(body)}`);
  const parts = [`curl -sS -X POST ${shellQuote(url)}`];
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (lower === 'x-signature' || lower === 'content-length') continue;
    parts.push(`-H ${shellQuote(`${name}: ${value}`)}`);
  }
  if (signed) {
    parts.push(
      `-H "X-Signature: $(printf '%s' "$BODY" | openssl dgst -sha1 -hmac "$HOOKGATE_SECRET" | sed 's/^.*= //')"`,
    );
  }
  parts.push(`--data-binary "$BODY"`);
  lines.push(parts.join(' \\\n  '));
  return lines.join('\n');
}
