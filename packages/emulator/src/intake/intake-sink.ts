import type { Call, CallType } from '@hookgate/core/calls';
import type { DeliveryRecord } from '../log/delivery-record.js';

/**
 * Where and when a call reached the intake, and what the intake has to say about it.
 *
 * @example
 * const entry: IntakeEntry = { writeKey: 'wk', receivedMs: clock.now(), rawCall: () => '{"userId":"u1"}' };
 */
export interface IntakeEntry {
  /** The source's write key (from Basic auth or the body). */
  writeKey: string;
  /** When the request arrived, epoch ms on the emulator's clock. */
  receivedMs: number;
  /**
   * The call's text exactly as the client sent it, asked for only when its record keeps it (a call
   * filtered, refused, or with `notes`), as the record is made.
   */
  rawCall?: () => string | undefined;
  /** What the intake noticed about the call, in words (an integer JSON parsing changed). */
  notes?: readonly string[];
}

/**
 * Where the intake hands over what it read: the emulator's one way in for calls that came over HTTP.
 * `accept` checks a call as `emulator.ingest` does (the same checks, whichever way it came), drops a
 * repeat of a `(writeKey, messageId)` accepted within the dedupe window (recorded `filtered` with
 * `duplicateOf`), then records and delivers it; `refuse` records a call the intake refused
 * (`filtered`, with the intake's reason), so nothing received with a valid write key goes unrecorded.
 * An emulator makes its own (`emulator.intakeSink`) and the intake it serves is given it.
 *
 * @example
 * const record = emulator.intakeSink.accept({ type: 'track', userId: 'u1', event: 'E' }, { writeKey: 'wk', receivedMs: Date.now() });
 */
export interface IntakeSink {
  /** Takes a call the intake read; throws as `ingest` does (bad call, unknown key, closed, log full). */
  accept(call: Call, entry: IntakeEntry): DeliveryRecord;
  /** Records a refused call (`filtered`, no body) with `reason`, and its text as sent when given. */
  refuse(type: CallType, entry: IntakeEntry, reason: string): DeliveryRecord;
}
