import type { Entry } from './message.js';
import type { Message } from './types.js';
import { LIBRARY } from './version.js';

const HEAD = '{"batch":[';
const TAIL = `","context":${JSON.stringify({ library: LIBRARY })}}`;

/** Bytes of a batch body besides its messages: the envelope with `sentAt` and `context.library`. */
export const ENVELOPE_BYTES = Buffer.byteLength(`${HEAD}],"sentAt":"${new Date(0).toISOString()}${TAIL}`);

/**
 * One batch request in the making: its messages (kept as one joined JSON string), their ids, and the
 * place of its first message in the order of calls. The body is rebuilt at each attempt with a fresh
 * `sentAt`: `{ "batch": [...], "sentAt": ISO, "context": { "library": { name, version } } }`.
 */
export class Batch {
  /** The messages' JSON joined by commas. */
  readonly #items: string;
  /** The messages' ids, in order. */
  readonly ids: string[];
  /** Sequence number (0-based, in call order) of the first message. */
  readonly firstSeq: number;
  /** Size of the request body in bytes. */
  readonly bytes: number;
  /** Attempts made so far. */
  attempts = 0;
  /** When the first attempt started (ms since epoch). */
  startedAt = 0;

  constructor(entries: Entry[], firstSeq: number) {
    this.firstSeq = firstSeq;
    this.ids = entries.map((e) => e.id);
    this.#items = entries.map((e) => e.json).join(',');
    let bytes = ENVELOPE_BYTES + entries.length - 1;
    for (const e of entries) bytes += e.bytes;
    this.bytes = bytes;
  }

  /** Number of messages. */
  get count(): number {
    return this.ids.length;
  }

  /** The request body, stamped with `sentAt`. */
  body(sentAt: string = new Date().toISOString()): Buffer {
    return Buffer.from(`${HEAD}${this.#items}],"sentAt":"${sentAt}${TAIL}`);
  }

  /** The messages as sent (parsed back: only needed when a batch fails). */
  messages(): Message[] {
    return JSON.parse(`[${this.#items}]`) as Message[];
  }
}
