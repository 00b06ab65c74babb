import { fixtures, messageIssues, MESSAGE_TYPES, type ValidationIssue } from '@hookgate/core';
import { type Call } from '@hookgate/core/calls';
import type { DeliveryRecord } from '../log/delivery-record.js';
import type { InspectorEngine } from './inspector-engine.js';

/** What "Send test event" did: the records it created, or the issues (each with its JSON path). */
export type SendTestResult =
  { ok: true; records: DeliveryRecord[] } | { ok: false; status: 400; issues: ValidationIssue[] };

/**
 * The fixture of every message type, with the current time on the emulator's clock: what the page's
 * type picker prefills the editor with.
 *
 * @example
 * testEventTemplates(Date.now()).track.event; // 'Order Completed'
 */
export function testEventTemplates(nowMs: number): Record<string, unknown> {
  const timestamp = new Date(nowMs).toISOString();
  return Object.fromEntries(MESSAGE_TYPES.map((t) => [t, { ...structuredClone(fixtures[t]), timestamp }]));
}

/** The call that makes the emulator build this message (the transform keeps the Webhooks message fields). */
function callOf(m: Record<string, unknown>): Call {
  const { version: _v, type, 'Previous ID': previousId, 'User ID': aliasUserId, ...rest } = m;
  if (type === 'alias') return { ...rest, type, previousId, userId: aliasUserId } as unknown as Call;
  return { ...rest, type } as unknown as Call;
}

/**
 * Validates a message with core's validator (issues name their JSON path) and delivers it through the
 * emulator from the first source with webhooks (or `writeKey`): as a call for the six call types, as a
 * deletion for `delete`.
 *
 * @example
 * const r = sendTestEvent(emulator, { type: 'track', message: { ...fixtures.track } });
 */
export function sendTestEvent(engine: InspectorEngine, input: unknown): SendTestResult {
  const bad = (path: string, message: string): SendTestResult => ({
    ok: false,
    status: 400,
    issues: [{ path, message }],
  });
  if (typeof input !== 'object' || input === null)
    return bad('$', 'the request body must be {"message": {...}, "writeKey"?: "..."}');
  const { message, writeKey: given } = input as { message?: unknown; writeKey?: unknown };
  const issues = messageIssues(message);
  if (issues.length > 0) return { ok: false, status: 400, issues };
  const source =
    typeof given === 'string'
      ? engine.sources.find((s) => s.writeKey === given)
      : (engine.sources.find((s) => s.webhooks !== undefined) ?? engine.sources[0]);
  if (!source)
    return bad('writeKey', typeof given === 'string' ? 'no source has this write key' : 'the emulator has no source');
  const m = message as Record<string, unknown>;
  if (m.type === 'delete') {
    return { ok: true, records: engine.deleteUser(m.userId as string, { sources: [source.writeKey] }) };
  }
  try {
    return { ok: true, records: [engine.ingest(callOf(m), { writeKey: source.writeKey })] };
  } catch (error) {
    const e = error as { issues?: ValidationIssue[]; message?: string };
    if (Array.isArray(e.issues)) return { ok: false, status: 400, issues: e.issues };
    throw error;
  }
}
