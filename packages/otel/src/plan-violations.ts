import type { MessageFacts, PlanViolationFacts } from '@hookgate/core';
import type { Attributes, Counter } from '@opentelemetry/api';
import { ATTR } from './names.js';
import { bounded, metricType } from './recorded-values.js';

/**
 * Counts a message's tracking-plan violations, one per violation, by message type, event, rule and
 * JSON Schema keyword (a receiver's check, or a worker's).
 *
 * @example
 * countViolations(instruments.planViolations, { type: 'track', event: 'Order Completed' }, violations);
 */
export function countViolations(
  counter: Counter,
  message: MessageFacts | undefined,
  violations: readonly PlanViolationFacts[],
): void {
  const type = metricType(message?.type);
  const event = message?.event;
  for (const violation of violations) {
    const attributes: Attributes = { [ATTR.planKeyword]: violation.keyword };
    if (type !== undefined) attributes[ATTR.messageType] = type;
    if (event !== undefined) attributes[ATTR.event] = bounded(event);
    if (violation.rule !== undefined) attributes[ATTR.planRule] = bounded(violation.rule);
    counter.add(1, attributes);
  }
}
