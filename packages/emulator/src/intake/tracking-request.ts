import type http from 'node:http';
import { ValidationError } from '@hookgate/core';
import { endUnreadBody } from '@hookgate/core/adapter';
import { EmulatorClosedError, LogFullError } from '../errors.js';
import type { IntakeEntry, IntakeSink } from './intake-sink.js';
import { bigNumberNotes } from './big-number-notes.js';
import { callTextsOf } from './raw-call-text.js';
import type { IntakeEngine } from './intake-engine.js';
import { intakeError, intakeOk, intakePartial, type IntakeResponse, type RefusedCallView } from './intake-response.js';
import { parseIntakePayload, refusedAll, type IntakeRoute, type RefusedCall } from './parse-intake-payload.js';
import { readIntakeBody } from './read-intake-body.js';
import type { ResolvedIntakeOptions } from './resolve-intake-options.js';
import { describeWriteKey, writeKeyFromAuthorization } from './write-key.js';

/** The answer to a tracking request; `close`: with `Connection: close`. */
export interface TrackingAnswer {
  response: IntakeResponse;
  close?: boolean;
}

/**
 * Answers one tracking request (`POST /v1/<type>` or a batch): reads its write key and body, hands
 * its calls to the engine's sink in body order (valid ones to be delivered, refused ones to be recorded),
 * and says what became of each.
 */
export async function answerTrackingRequest(
  engine: IntakeEngine,
  opts: ResolvedIntakeOptions,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  route: IntakeRoute,
): Promise<TrackingAnswer> {
  const auth = writeKeyFromAuthorization(req.headers.authorization);
  if (auth.kind === 'invalid') return { response: intakeError('invalid_authorization', auth.message), close: true };
  if (auth.kind === 'key' && !engine.hasSource(auth.writeKey)) {
    return { response: unknownKey(auth.writeKey), close: true };
  }
  const body = await readIntakeBody(req, opts.maxBatchBytes);
  if (!body.ok) {
    // Refused before its end (too large, an unknown encoding): the rest is read and dropped (core's
    // endUnreadBody), so a client still writing reads the answer instead of a reset.
    if (!body.consumed) endUnreadBody(req, res);
    return { response: body.response };
  }
  let value: unknown;
  const text = body.bytes.toString('utf8');
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { response: intakeError('invalid_json', `The body is not valid JSON: ${(error as Error).message}.`) };
  }
  const limits = { maxCallBytes: opts.maxCallBytes };
  const parsed = parseIntakePayload(value, route, limits);
  if (!parsed.ok) return { response: parsed.response };
  const writeKey = auth.kind === 'key' ? auth.writeKey : parsed.bodyWriteKey;
  if (writeKey === undefined) {
    return {
      response: intakeError(
        'missing_write_key',
        'No write key: send "Authorization: Basic " + base64(writeKey + ":"), or a "writeKey" field in the JSON body.',
      ),
    };
  }
  if (auth.kind !== 'key' && !engine.hasSource(writeKey)) return { response: unknownKey(writeKey) };
  const receivedMs = engine.clock.now();
  const { calls, indexes, refused } = parsed;
  const sink = engine.intakeSink;
  // A call's text as sent is cut out of the body only for the records that keep it (filtered, refused, noted).
  const textOf = callTextsOf(text, route);
  // Integers beyond 2^53 that parsing changed: said on their records.
  const notes = bigNumberNotes(text, route, calls, indexes);
  const views: RefusedCallView[] = [];
  // A refused call's text is kept only up to the size of a call (one refused for its depth can be a whole 500 KB body).
  const refuse = (call: RefusedCall) =>
    recordRefused(opts, sink, call, {
      writeKey,
      receivedMs,
      rawCall: call.tooLarge ? undefined : () => boundedText(textOf(call.index), opts.maxCallBytes),
    });
  // In body order, so the log lists the request's calls as they came, refused ones in their place.
  let r = 0;
  for (let i = 0; i < calls.length; i++) {
    const at = indexes[i] as number;
    while (r < refused.length && (refused[r] as RefusedCall).index < at)
      views.push(refuse(refused[r++] as RefusedCall));
    try {
      const call = calls[i] as (typeof calls)[number];
      sink.accept(call, { writeKey, receivedMs, rawCall: () => textOf(at), notes: notes?.[i] });
    } catch (error) {
      return { response: engineFailure(opts, error, i, route.kind === 'batch' ? `$.batch[${at}]` : '$') };
    }
  }
  while (r < refused.length) views.push(refuse(refused[r++] as RefusedCall));
  if (refused.length === 0) return { response: intakeOk() };
  return { response: calls.length === 0 ? refusedAll(refused, route, views) : intakePartial(calls.length, views) };
}

/** The answer when the engine threw on the `i`-th accepted call (at `where` in the body). */
function engineFailure(opts: ResolvedIntakeOptions, error: unknown, i: number, where: string): IntakeResponse {
  if (i === 0 && error instanceof ValidationError) {
    return intakeError('invalid_call', `The delivery engine refused ${where}: ${error.message}`, error.issues);
  }
  if (i === 0 && error instanceof EmulatorClosedError) {
    return intakeError(
      'emulator_closed',
      'The emulator is shutting down and takes no more calls; nothing of this request was accepted. Retry later.',
    );
  }
  if (error instanceof LogFullError) {
    // Nothing accepted is dropped: the calls before this one are recorded (a resend is deduped by messageId).
    const taken =
      i === 0 ? 'nothing of this request was accepted' : `the first ${i} call${i === 1 ? ' was' : 's were'} accepted`;
    return intakeError('log_full', `${error.message} (${where}: ${taken}; retry later.)`);
  }
  opts.onError(error);
  return intakeError(
    'internal_error',
    `The delivery engine failed on ${where} after accepting ${i} call${i === 1 ? '' : 's'} of this request (those are delivered): ${(error as Error).message}`,
  );
}

/**
 * Records a refused call in the delivery log (`filtered`, with the intake's reason, and its text as
 * sent: a refused call is rare, and its text is what explains it), when the call names a known type;
 * returns what the answer lists of it.
 */
function recordRefused(
  opts: ResolvedIntakeOptions,
  sink: IntakeSink,
  refused: RefusedCall,
  entry: IntakeEntry,
): RefusedCallView {
  const view: RefusedCallView = { index: refused.index, issues: refused.issues };
  if (refused.type === undefined) return view;
  const reason = `refused by the intake: ${refused.issues.map((i) => `${i.path} ${i.message}`).join('; ')}`;
  try {
    view.recordId = sink.refuse(refused.type, entry, reason).id;
  } catch (error) {
    // Closed meanwhile: the answer still names the call; anything else is unexpected.
    if (!(error instanceof EmulatorClosedError)) opts.onError(error);
  }
  return view;
}

/** `text` when it is at most `maxBytes` of UTF-8 (a string takes at least one byte per code unit, at most three). */
function boundedText(text: string | undefined, maxBytes: number): string | undefined {
  if (text === undefined || text.length > maxBytes) return undefined;
  return text.length * 3 <= maxBytes || Buffer.byteLength(text, 'utf8') <= maxBytes ? text : undefined;
}

function unknownKey(writeKey: string): IntakeResponse {
  return intakeError(
    'unknown_write_key',
    `Unknown write key ${describeWriteKey(writeKey)}: no source of this emulator has it. Use the write key of a configured source (createEmulator({ sources: [{ writeKey }] }), or the one \`hookgate serve\` prints).`,
  );
}
