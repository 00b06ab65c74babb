// The shared conformance table: one list of cases that every adapter, core's `fetch` and the Bun,
// Deno and workerd runs must pass. Data only; `conformance.ts` sends the requests and checks the answers.
import { MESSAGE_TYPES, type MessageType } from '@hookgate/core';
import type { ScenarioName } from './conformance-scenarios.js';

/** What body a request carries. `message` is a seed-shaped fixture of one type, unique to the case. */
export type BodySpec =
  | { kind: 'message'; type: MessageType }
  /** A track message whose properties hold emoji and multibyte text. */
  | { kind: 'multibyte' }
  /** A track message padded to about `bytes` bytes. */
  | { kind: 'large'; bytes: number }
  | { kind: 'malformed-json' }
  /** Valid JSON that is not a webhook message (a track without `event`). */
  | { kind: 'not-a-message' }
  | { kind: 'none' };

/** How the `X-Signature` header is made. */
export type SignatureSpec =
  | 'valid'
  | 'missing'
  /** 40 hex digits that are not the HMAC. */
  | 'wrong'
  /** The right HMAC without its last 8 digits. */
  | 'truncated'
  /** 40 characters, not all hex. */
  | 'non-hex'
  /** A correct HMAC under a secret the receiver does not know. */
  | 'wrong-secret'
  /** A correct HMAC under the rotated-out (previous) secret. */
  | 'previous-secret';

/** How the bytes travel. */
export type TransportSpec =
  /** One write with Content-Length (node:http). */
  | 'content-length'
  /** Transfer-Encoding: chunked, no Content-Length (node:http). */
  | 'chunked'
  /** Raw TCP (`net.connect`), Content-Length, the body written in several writes split inside multibyte characters. */
  | 'split-tcp'
  /** Raw TCP, chunked encoding whose chunks split multibyte characters. */
  | 'split-tcp-chunked';

/** One request of a case. */
export interface RequestSpec {
  method?: string;
  contentType?: string;
  body: BodySpec;
  signature: SignatureSpec;
  /** Change one character of the body after signing it. */
  tamper?: boolean;
  transport?: TransportSpec;
  /** Send exactly the bytes and headers of the case's previous request again (a retry). */
  repeatPrevious?: boolean;
}

/** What the answer to one request must be. */
export interface AnswerSpec {
  status: number;
  /** core's answer code in the JSON body, where the receiver (not the route) answered. */
  code?: string;
  /** Answered within this many ms. */
  withinMs?: number;
  /** Answered no sooner than this many ms (the deadline really waited). */
  notBeforeMs?: number;
  /** The body carries no stack trace and not the thrown error's text. */
  noStackTrace?: boolean;
  /** When the answer arrived, the handler had started but not finished (acknowledge mode). */
  handlerStillRunning?: boolean;
}

/** One row of the table. */
export interface ConformanceCase {
  name: string;
  scenario: ScenarioName;
  requests: RequestSpec[];
  answers: AnswerSpec[];
  /** How many times the handler started for this case's message(s), checked after all answers. */
  handlerRuns: number;
  /** The handler saw exactly the message sent, through the handler of its type (`on.<type>`) where there is one. */
  sawMessage?: boolean;
  /** The handler finished later (background work), waited for up to this many ms. */
  finishesWithinMs?: number;
  /** Which secret index verified each run (rotation). */
  secretIndexes?: number[];
  /** Runs only where the runner asks for slow cases (the real 4 s default deadline). */
  slow?: boolean;
}

const signed = (body: BodySpec, extra: Partial<RequestSpec> = {}): RequestSpec => ({
  body,
  signature: 'valid',
  ...extra,
});
const track: BodySpec = { kind: 'message', type: 'track' };

const unauthorized = (name: string, signature: SignatureSpec): ConformanceCase => ({
  name,
  scenario: 'main',
  requests: [{ body: track, signature }],
  answers: [{ status: 401, code: signature === 'missing' ? 'missing_signature' : 'invalid_signature' }],
  handlerRuns: 0,
});

/** The table. */
export const CONFORMANCE_CASES: readonly ConformanceCase[] = [
  ...MESSAGE_TYPES.map((type): ConformanceCase => ({
    name: `valid signed ${type} message → 200, the ${type} handler saw it typed`,
    scenario: 'main',
    requests: [signed({ kind: 'message', type })],
    answers: [{ status: 200 }],
    handlerRuns: 1,
    sawMessage: true,
  })),
  unauthorized('missing signature → 401, handler not run', 'missing'),
  unauthorized('wrong signature → 401, handler not run', 'wrong'),
  unauthorized('truncated signature → 401, handler not run', 'truncated'),
  unauthorized('non-hex signature → 401, handler not run', 'non-hex'),
  unauthorized('signed with the wrong secret → 401, handler not run', 'wrong-secret'),
  {
    name: 'tampered body with the original signature → 401, handler not run',
    scenario: 'main',
    requests: [signed(track, { tamper: true })],
    answers: [{ status: 401, code: 'invalid_signature' }],
    handlerRuns: 0,
  },
  {
    name: 'malformed JSON, correctly signed → 400',
    scenario: 'main',
    requests: [signed({ kind: 'malformed-json' })],
    answers: [{ status: 400, code: 'invalid_json' }],
    handlerRuns: 0,
  },
  {
    name: 'malformed JSON, unsigned or wrongly signed → 401: the signature is checked before the body is read as JSON',
    scenario: 'main',
    requests: [
      { body: { kind: 'malformed-json' }, signature: 'missing' },
      { body: { kind: 'malformed-json' }, signature: 'wrong' },
    ],
    answers: [
      { status: 401, code: 'missing_signature' },
      { status: 401, code: 'invalid_signature' },
    ],
    handlerRuns: 0,
  },
  {
    name: 'valid JSON that is not a valid message, correctly signed → 400',
    scenario: 'main',
    requests: [signed({ kind: 'not-a-message' })],
    answers: [{ status: 400, code: 'invalid_message' }],
    handlerRuns: 0,
  },
  {
    name: 'body over the limit, with Content-Length → 413',
    scenario: 'small',
    requests: [signed({ kind: 'large', bytes: 6_000 })],
    answers: [{ status: 413 }],
    handlerRuns: 0,
  },
  {
    name: 'body over the limit, chunked without Content-Length → 413',
    scenario: 'small',
    requests: [signed({ kind: 'large', bytes: 6_000 }, { transport: 'chunked' })],
    answers: [{ status: 413 }],
    handlerRuns: 0,
  },
  {
    name: 'body under the limit of the same receiver → 200 (the limit is not too eager)',
    scenario: 'small',
    requests: [signed({ kind: 'large', bytes: 1_500 })],
    answers: [{ status: 200 }],
    handlerRuns: 1,
    sawMessage: true,
  },
  {
    name: 'wrong content type (text/plain) → 415, handler not run',
    scenario: 'main',
    requests: [signed(track, { contentType: 'text/plain' })],
    answers: [{ status: 415, code: 'unsupported_media_type' }],
    handlerRuns: 0,
  },
  {
    name: 'GET → 405',
    scenario: 'main',
    requests: [{ method: 'GET', body: { kind: 'none' }, signature: 'missing' }],
    answers: [{ status: 405, code: 'method_not_allowed' }],
    handlerRuns: 0,
  },
  {
    name: 'handler throws → 500 without a stack trace',
    scenario: 'throws',
    requests: [signed(track)],
    answers: [{ status: 500, noStackTrace: true }],
    handlerRuns: 1,
  },
  {
    name: 'handler slower than the deadline (300 ms) → 503 before 5 s',
    scenario: 'slow',
    requests: [signed(track)],
    answers: [{ status: 503, code: 'deadline_exceeded', notBeforeMs: 250, withinMs: 4_900 }],
    handlerRuns: 1,
  },
  {
    name: 'handler slower than the default deadline (4 s) → 503 before 5 s',
    scenario: 'default-deadline',
    requests: [signed(track)],
    answers: [{ status: 503, code: 'deadline_exceeded', notBeforeMs: 3_900, withinMs: 4_990 }],
    handlerRuns: 1,
    slow: true,
  },
  {
    name: 'acknowledge-first mode → 200 in well under 1 s while the handler runs on',
    scenario: 'ack',
    requests: [signed(track)],
    answers: [{ status: 200, withinMs: 600, handlerStillRunning: true }],
    handlerRuns: 1,
    finishesWithinMs: 5_000,
  },
  {
    name: 'duplicate delivery (same bytes twice) → 200 both times, the handler ran once',
    scenario: 'main',
    requests: [signed(track), { ...signed(track), repeatPrevious: true }],
    answers: [{ status: 200 }, { status: 200, code: 'duplicate' }],
    handlerRuns: 1,
  },
  {
    name: 'rotated secrets: signed with the current and with the previous secret → both accepted',
    scenario: 'rotated',
    requests: [signed(track), { body: { kind: 'message', type: 'identify' }, signature: 'previous-secret' }],
    answers: [{ status: 200 }, { status: 200 }],
    handlerRuns: 2,
    secretIndexes: [0, 1],
  },
  {
    name: 'emoji and multibyte text split across TCP writes (Content-Length) → verified',
    scenario: 'main',
    requests: [signed({ kind: 'multibyte' }, { transport: 'split-tcp' })],
    answers: [{ status: 200 }],
    handlerRuns: 1,
    sawMessage: true,
  },
  {
    name: 'emoji and multibyte text split across chunks (chunked encoding) → verified',
    scenario: 'main',
    requests: [signed({ kind: 'multibyte' }, { transport: 'split-tcp-chunked' })],
    answers: [{ status: 200 }],
    handlerRuns: 1,
    sawMessage: true,
  },
];
