/** What to check, by the kind of failure. */
function fixFor(code: string | undefined): string {
  if (code && /CERT|SELF_SIGNED|TLS|SSL|ERR_TLS/i.test(code)) {
    return 'The sender refuses untrusted and self-signed certificates too: serve a certificate from a trusted CA, or test over http';
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'Check the host name in the URL';
  return 'Check the URL and that the receiver is running and listening on that port';
}

/**
 * The conformance suite could not reach the receiver at all (refused, unknown host, unreachable
 * network, TLS refused): no case can say anything, so the run stops at its first request. The CLI
 * prints the message and exits 2.
 *
 * @example
 * try { await runConformance({ url, secret }); } catch (e) { if (e instanceof ConformanceUnreachableError) console.error(e.message); }
 */
export class ConformanceUnreachableError extends Error {
  override readonly name = 'ConformanceUnreachableError';
  constructor(
    /** The receiver URL, masked (no password, no query value). */
    readonly url: string,
    /** The system error code, e.g. `ECONNREFUSED`, when there is one. */
    readonly code: string | undefined,
    detail: string,
  ) {
    super(`cannot reach the receiver at ${url}: ${detail}. ${fixFor(code)}; no case was run.`);
  }
}
