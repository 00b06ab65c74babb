import type { Call, CallType } from '@hookgate/core/calls';
import type { IntakeNote } from './intake/big-number-notes.js';
import type { DeliveryRecord } from './log/delivery-record.js';

/**
 * The engine's internal entry point for calls the intake has already validated (core's `readClientCall`,
 * each call it accepts): `engine[INGEST_VALIDATED](call, writeKey, receivedMs)` records the call without
 * checking it a second time. Not exported from the package: a user's `ingest` is always checked.
 */
export const INGEST_VALIDATED: unique symbol = Symbol('hookgate.ingestValidated');

/**
 * Where the validated calls of one request can be had again later: lets a filtered record drop the
 * call's object graph (kept objects cost garbage-collector time on every collection) and rebuild its
 * body only if read.
 */
export interface CallSource {
  /** Called once a record keeps this source: make it independent of the request's buffers. */
  pin(): void;
  /** The call at `index` of the request, as it was ingested. */
  callAt(index: number): Call;
  /** The call at `index` as text, exactly as the client sent it (when the request's bytes are kept). */
  rawCallAt?(index: number): string | undefined;
}

/** An engine that offers the internal entry point (an `Emulator` does). */
export interface TrustedIngest {
  /** `note`: what the intake noticed about the call (a number JSON parsing changed), kept on the record with the call's raw text. */
  [INGEST_VALIDATED](
    call: Call,
    writeKey: string,
    receivedMs: number,
    source?: CallSource,
    index?: number,
    note?: IntakeNote,
  ): DeliveryRecord;
}

/** Whether an engine offers the internal entry point (a stand-in engine in a test or benchmark may not). */
export function hasTrustedIngest(engine: object): engine is TrustedIngest {
  return typeof (engine as Partial<TrustedIngest>)[INGEST_VALIDATED] === 'function';
}

/**
 * The engine's internal entry point for a call the intake refused (invalid, or over 32 KB, while the
 * rest of its request was accepted or answered 400): `engine[RECORD_REFUSED](type, writeKey,
 * receivedMs, reason, rawCall)` records it as `filtered` with the reason and no body, and the call's
 * text as the client sent it, so that nothing the intake received with a valid write key goes
 * unrecorded or unexplained. Not exported from the package.
 */
export const RECORD_REFUSED: unique symbol = Symbol('hookgate.recordRefused');

/** An engine that records the intake's refused calls (an `Emulator` does). */
export interface RefusalRecorder {
  [RECORD_REFUSED](
    type: CallType,
    writeKey: string,
    receivedMs: number,
    reason: string,
    rawCall?: string,
  ): DeliveryRecord;
}

/** Whether an engine records refused calls (a stand-in engine in a test or benchmark may not). */
export function canRecordRefusals(engine: object): engine is RefusalRecorder {
  return typeof (engine as Partial<RefusalRecorder>)[RECORD_REFUSED] === 'function';
}
