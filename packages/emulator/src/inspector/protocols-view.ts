// What a source's tracking plan did to a delivery, for the inspector: the violations and the omitted
// properties and traits its message carries in `context.protocols` (Segment's spelling), read from the
// body sent (a classic message, or a whole Webhooks (Actions) event).

import type { ProtocolsView } from './wire-types.js';

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

/**
 * The `context.protocols` of a delivered message (parsed body) as a `ProtocolsView`, or `undefined`
 * when the plan left no trace on it.
 *
 * @example
 * protocolsView({ context: { protocols: { omitted: ['utm'] } } }); // { violations: [], omitted: ['utm'], omittedOnViolation: [] }
 */
export function protocolsView(message: Record<string, unknown> | undefined): ProtocolsView | undefined {
  const context = message?.context as { protocols?: Record<string, unknown> } | undefined;
  const p = context?.protocols;
  if (typeof p !== 'object' || p === null) return undefined;
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  const violations = (Array.isArray(p.violations) ? (p.violations as unknown[]) : []).flatMap((v) => {
    const o = v as Record<string, unknown> | null;
    return o && typeof o === 'object'
      ? [{ type: text(o.type), field: text(o.field), description: text(o.description) }]
      : [];
  });
  const view = { violations, omitted: strings(p.omitted), omittedOnViolation: strings(p.omitted_on_violation) };
  return view.violations.length + view.omitted.length + view.omittedOnViolation.length > 0 ? view : undefined;
}
