import type { ConformanceReport } from './conformance-types.js';

/** The cases whose request is a correct delivery, signed with the given secret. */
const isSignedDelivery = (id: string) => id.startsWith('signed-') || id === 'duplicate-delivery';

/**
 * Whether a run looks like a wrong secret rather than many separate faults: every correct delivery
 * signed with the given secret got 401, every request meant to be refused was refused (4xx), and no
 * other request was accepted. Then the receiver verifies signatures, just with another secret.
 *
 * @example
 * if (looksLikeWrongSecret(report)) console.error('every signed request got 401: check the secret');
 */
export function looksLikeWrongSecret(report: Pick<ConformanceReport, 'cases'>): boolean {
  let signed = 0;
  for (const c of report.cases) {
    if (c.status === null) continue;
    if (isSignedDelivery(c.id)) {
      if (c.status !== 401) return false;
      signed++;
    } else if (c.status < 400 || c.status > 499) return false;
  }
  return signed > 0;
}
