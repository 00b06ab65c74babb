import type { MessageFacts, PlanViolationFacts } from '@hookgate/core';
import type { Attributes, Counter } from '@opentelemetry/api';
import { ATTR } from './names.js';
import { bounded, metricType } from './recorded-values.js';

/** The event of a violation of an event the plan does not name: senders choose event names, series must stay few. */
export const UNPLANNED_EVENT = '(unplanned)';

/**
 * Counts a message's tracking-plan violations, one per violation, by message type, event (a planned
 * one's name, else `(unplanned)`), rule and JSON Schema keyword (a receiver's check, or a worker's).
 *
 * @example
 * countViolations(instruments.planViolations, { type: 'track', event: 'Order Completed' }, violations, true);
 */
export function countViolations(
  counter: Counter,
  message: MessageFacts | undefined,
  violations: readonly PlanViolationFacts[],
  planned: boolean | undefined,
): void {
  const type = metricType(message?.type);
  const event = message?.event === undefined ? undefined : planned === true ? message.event : UNPLANNED_EVENT;
  for (const violation of violations) {
    const attributes: Attributes = { [ATTR.planKeyword]: violation.keyword };
    if (type !== undefined) attributes[ATTR.messageType] = type;
    if (event !== undefined) attributes[ATTR.event] = bounded(event);
    if (violation.rule !== undefined) attributes[ATTR.planRule] = bounded(violation.rule);
    counter.add(1, attributes);
  }
}
