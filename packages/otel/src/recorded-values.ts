// What of a value may become an attribute: bounded strings, and of a failure its type (its message when
// asked), never its stack, its cause or its other fields, which may hold the message's data.
import type { MessageFacts } from '@hookgate/core';
import { ATTR, MESSAGE_TYPES } from './names.js';

/** Longest text kept in an attribute (a sender's event name or messageId is far shorter). */
const MAX_TEXT = 256;

/**
 * A string cut to the attribute limit.
 *
 * @example
 * bounded('x'.repeat(1000)).length; // 256
 */
export function bounded(text: string): string {
  return text.length > MAX_TEXT ? text.slice(0, MAX_TEXT) : text;
}

/**
 * The span attributes of a message's facts (type, messageId, event), present ones only.
 *
 * @example
 * factAttributes({ type: 'track', event: 'Order Completed' }); // { 'hookgate.message.type': 'track', 'hookgate.event': 'Order Completed' }
 */
export function factAttributes(facts: MessageFacts | undefined): Record<string, string | number> {
  const attributes: Record<string, string | number> = {};
  if (facts === undefined) return attributes;
  if (facts.type !== undefined) attributes[ATTR.messageType] = bounded(facts.type);
  if (facts.messageId !== undefined) attributes[ATTR.messageId] = bounded(facts.messageId);
  if (facts.event !== undefined) attributes[ATTR.event] = bounded(facts.event);
  return attributes;
}

/**
 * A message type as metrics split it: one of Segment's types, else `other` (bounded cardinality).
 *
 * @example
 * metricType('track'); // 'track'
 * metricType('order_mapped'); // 'other'
 */
export function metricType(type: string | undefined): string | undefined {
  if (type === undefined) return undefined;
  return MESSAGE_TYPES.has(type) ? type : 'other';
}

/**
 * A thrown value's type: its `name` for an Error (`TypeError`, `DeadlineExceededError`), else its `typeof`.
 *
 * @example
 * errorType(new RangeError('x')); // 'RangeError'
 */
export function errorType(error: unknown): string {
  if (error instanceof Error) return bounded(error.name || 'Error');
  return error === null ? 'null' : typeof error;
}

/**
 * What a span records of a failure: its type, and its message only when `withMessage` (the
 * `recordExceptionMessages` option: a handler's message may hold the message's data, a user id or an
 * email). Never its stack or fields.
 *
 * @example
 * span.recordException(recordedException(error, false)); // { name: 'TypeError' }
 */
export function recordedException(error: unknown, withMessage: boolean): { name: string; message?: string } {
  const name = errorType(error);
  return withMessage && error instanceof Error ? { name, message: bounded(String(error.message)) } : { name };
}
