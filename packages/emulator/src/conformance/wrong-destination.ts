import type { ConformanceReport } from './conformance-types.js';

/**
 * Whether a Webhooks (Actions) run met a Webhooks (Classic) receiver: the whole events sent by PUT
 * and by PATCH were both refused 405 (a Classic receiver takes POST only). The other failures of
 * such a run follow from it, so the report says this first.
 *
 * @example
 * if (looksLikeClassicReceiver(report)) console.error("PUT and PATCH got 405: create the receiver with destination: 'actions'");
 */
export function looksLikeClassicReceiver(report: Pick<ConformanceReport, 'cases'>): boolean {
  const status = (id: string) => report.cases.find((c) => c.id === id)?.status;
  return status('actions-put') === 405 && status('actions-patch') === 405;
}
