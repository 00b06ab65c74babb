import type { Call, CallType } from '@hookgate/core/calls';
import type { DeliveryRecord } from '../log/delivery-record.js';
import type { CallSource } from '../routing/deferred-call-bodies.js';
import type { IntakeNote } from './big-number-notes.js';

/**
 * Where the intake hands over what it read, when its engine offers more than the public `Ingest`
 * (an `Emulator` does): calls it already validated (not checked a second time; a messageId seen
 * within the dedupe window is recorded as a duplicate), and calls it refused (recorded `filtered`
 * with the intake's reason, so nothing received with a valid write key goes unrecorded).
 *
 * @example
 * offerIntakeSink(emulator, { acceptValidated: (call, key, at) => pipeline.accept(call, key, at), recordRefused });
 */
export interface IntakeSink {
  /** `source`/`index`: where the call can be read again; `note`: what the intake noticed about it. */
  acceptValidated(
    call: Call,
    writeKey: string,
    receivedMs: number,
    source?: CallSource,
    index?: number,
    note?: IntakeNote,
  ): DeliveryRecord;
  /** Records a refused call (`filtered`, no body), with the call's text as the client sent it. */
  recordRefused(type: CallType, writeKey: string, receivedMs: number, reason: string, rawCall?: string): DeliveryRecord;
}

const sinks = new WeakMap<object, IntakeSink>();

/**
 * Registers the sink of an engine (the emulator registers its own when made): the intake serving
 * that engine hands its calls there. Not exported from the package: a user's `ingest` is always checked.
 *
 * @example
 * offerIntakeSink(this, sink);
 */
export function offerIntakeSink(engine: object, sink: IntakeSink): void {
  sinks.set(engine, sink);
}

/**
 * The sink an engine offers, or undefined (a stand-in engine in a test or benchmark: its public
 * `ingest` is used, and refused calls are not recorded).
 *
 * @example
 * const sink = intakeSinkOf(engine);
 */
export function intakeSinkOf(engine: object): IntakeSink | undefined {
  return sinks.get(engine);
}
