// Checks of a receiver's options at creation: the shape (names, types; shared with the adapters) and
// the values (ranges, secrets, combinations), each failure a TypeError or RangeError naming the fix.
import { MESSAGE_TYPES } from '../messages/schemas.js';
import { SPEC_EVENT_TYPES } from '../actions/spec-events.js';
import { isStandardSchema } from '../actions/standard-schema.js';
import { optionNames, rejectUnknownNames } from '../options/nearest-name.js';
import { SIGNATURE_FORMS, type SignatureForm } from '../signatures/body-forms.js';
import type { Secret } from '../signatures/sign.js';
import {
  DEFAULT_DEADLINE_MS,
  DEFAULT_MAX_BODY_BYTES,
  RECEIVER_OPTION_NAMES,
  SENDER_TIMEOUT_MS,
  type DedupeOptions,
  type ReceiverOptions,
} from './options.js';

const DEDUPE_OPTIONS = { store: true, ttlMs: true, inFlightTtlMs: true } as const satisfies Record<
  keyof DedupeOptions,
  true
>;
const DEDUPE_OPTION_NAMES = Object.keys(DEDUPE_OPTIONS);

/** The names only `destination: 'actions'` takes (see `ActionsReceiverOptions`). */
const ACTIONS_OPTION_NAMES = ['onPayload', 'schema', 'insecureAcceptBatches'] as const;

function checkActionsOnly(options: Record<string, unknown>, caller: string): void {
  if (options.onPayload !== undefined && typeof options.onPayload !== 'function') {
    throw new TypeError(
      `${caller}: onPayload must be a function (payload, ctx) => …; got ${describe(options.onPayload)}.`,
    );
  }
  if (options.schema !== undefined && !isStandardSchema(options.schema)) {
    throw new TypeError(
      `${caller}: schema must be a Standard Schema (a Zod, Valibot, ArkType or TypeBox schema, …: an object with "~standard"); got ${describe(options.schema)}.`,
    );
  }
  if (options.schema !== undefined && options.onPayload === undefined) {
    throw new TypeError(
      `${caller}: schema checks the payloads onPayload gets; give onPayload too (whole events in on are checked against the Segment Spec).`,
    );
  }
  const batches = options.insecureAcceptBatches;
  if (batches !== undefined && typeof batches !== 'boolean' && batches !== 'including-unsigned') {
    throw new TypeError(
      `${caller}: insecureAcceptBatches must be true, false or 'including-unsigned'; got ${describe(batches)}.`,
    );
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A plain copy without the names whose value is `null` or `undefined`: `null` means "not given". */
function withoutNulls(value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of optionNames(value)) if (value[key] != null) out[key] = value[key];
  return out;
}

function describe(value: unknown): string {
  if (typeof value === 'function') return 'a function';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return JSON.stringify(value.length > 20 ? `${value.slice(0, 3)}…` : value);
  if (value === null) return 'null';
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- objects were answered above: a primitive
  return typeof value === 'object' ? 'an object' : String(value);
}

/**
 * Checks the shape of a receiver's options before anything else: an options object is given, every
 * name is an option (adapters add theirs in `adapterOptions`), every key of `on` is a message type
 * and every handler a function, the booleans are booleans. Throws an error naming the option, the
 * nearest valid name and the fix. Returns a copy in which `null` is the same as leaving an optional
 * field out (at the top level, in `on` and in `dedupe`). Values (ranges, secrets) are checked by
 * `createReceiver` itself.
 *
 * @example
 * const options = checkReceiverOptions(given, { caller: 'hookgate()', adapterOptions: ['path'] });
 * const receiver = createReceiver(options);
 */
export function checkReceiverOptions<T extends object = ReceiverOptions>(
  given: unknown,
  { caller = 'createReceiver()', adapterOptions = [] }: { caller?: string; adapterOptions?: readonly string[] } = {},
): T {
  if (!isPlainObject(given)) {
    throw new TypeError(
      `${caller} needs an options object with your shared secret, e.g. ${caller.replace(/\(\)$/, '')}({ secret: process.env.WEBHOOK_SECRET, on: { track: (msg) => console.log(msg.event) } }); ` +
        `to accept unsigned requests instead (local experiments only), pass { insecureSkipVerification: true }. Got ${describe(given)}.`,
    );
  }
  const actions = given.destination === 'actions';
  if (given.destination != null && given.destination !== 'classic' && !actions) {
    throw new TypeError(
      `${caller}: destination must be 'classic' (the default, the Webhooks destination) or 'actions' (Webhooks (Actions)); got ${describe(given.destination)}.`,
    );
  }
  if (actions) {
    for (const name of ['onMessage', 'strictTimestamps'] as const) {
      if (given[name] != null) {
        throw new TypeError(
          `${caller}: ${name} is an option of the classic destination; with destination: 'actions' ` +
            (name === 'onMessage'
              ? 'use onPayload (any payload) or on (whole Segment events).'
              : 'remove it (Segment events carry their own timestamps).'),
        );
      }
    }
  }
  const names = actions
    ? [...RECEIVER_OPTION_NAMES.filter((n) => n !== 'onMessage' && n !== 'strictTimestamps'), ...ACTIONS_OPTION_NAMES]
    : RECEIVER_OPTION_NAMES;
  rejectUnknownNames(given, [...names, ...adapterOptions], { caller });
  const options = withoutNulls(given);

  if (options.on !== undefined) {
    if (!isPlainObject(options.on)) {
      throw new TypeError(
        `${caller}: on must be an object of handlers per message type, e.g. { track: (msg) => … }; got ${describe(options.on)}.`,
      );
    }
    if (actions) rejectUnknownNames(options.on, SPEC_EVENT_TYPES, { caller, path: 'on', kind: 'Segment event type' });
    else rejectUnknownNames(options.on, MESSAGE_TYPES, { caller, path: 'on', kind: 'message type' });
    const on = withoutNulls(options.on);
    for (const [type, handler] of Object.entries(on)) {
      if (typeof handler !== 'function' && !(type === 'track' && isPlainObject(handler))) {
        throw new TypeError(`${caller}: on.${type} must be a function (msg, ctx) => …; got ${describe(handler)}.`);
      }
    }
    options.on = on;
  }
  if (actions) checkActionsOnly(options, caller);
  for (const name of ['onMessage', 'onError', 'enqueue', 'onViolation'] as const) {
    if (options[name] !== undefined && typeof options[name] !== 'function') {
      throw new TypeError(`${caller}: ${name} must be a function; got ${describe(options[name])}.`);
    }
  }
  for (const name of [
    'insecureSkipVerification',
    'allowReserializedWithRawBody',
    'strictTimestamps',
    'debug',
  ] as const) {
    if (options[name] !== undefined && typeof options[name] !== 'boolean') {
      throw new TypeError(`${caller}: ${name} must be true or false; got ${describe(options[name])}.`);
    }
  }
  const logger = options.logger as Record<string, unknown> | undefined;
  if (
    logger !== undefined &&
    (logger as unknown) !== false &&
    (typeof logger !== 'object' ||
      typeof logger.warn !== 'function' ||
      (logger.debug != null && typeof logger.debug !== 'function'))
  ) {
    throw new TypeError(
      `${caller}: logger must be an object with a warn(line) method (debug(line) optional), e.g. logger: console, or false for none; got ${describe(logger)}.`,
    );
  }
  if (isPlainObject(options.dedupe)) {
    rejectUnknownNames(options.dedupe, DEDUPE_OPTION_NAMES, { caller, path: 'dedupe' });
    options.dedupe = withoutNulls(options.dedupe);
  } else if (options.dedupe !== undefined && options.dedupe !== false) {
    throw new TypeError(
      `${caller}: dedupe must be false (off) or an object { store?, ttlMs?, inFlightTtlMs? }; got ${describe(options.dedupe)}.`,
    );
  }
  return options as T;
}

/**
 * Checks the values of a receiver's options (deadline and body limit ranges, mode, crypto, forms,
 * dedupe, enqueue combinations, the secrets) and returns the settled ones; `secrets` is `null` when
 * verification is explicitly off.
 *
 * @example
 * const { secrets, deadlineMs, maxBodyBytes } = checkOptionValues(options);
 */
export function checkOptionValues<T>(options: ReceiverOptions<T>): {
  secrets: readonly Secret[] | null;
  deadlineMs: number;
  maxBodyBytes: number;
} {
  const deadlineMs = options.deadlineMs ?? DEFAULT_DEADLINE_MS;
  if (!Number.isInteger(deadlineMs) || deadlineMs < 1 || deadlineMs >= SENDER_TIMEOUT_MS) {
    throw new RangeError(
      `deadlineMs must be a whole number of milliseconds from 1 to ${SENDER_TIMEOUT_MS - 1} (the sender gives up at ${SENDER_TIMEOUT_MS} ms); got ${options.deadlineMs}.`,
    );
  }
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  if (!Number.isInteger(maxBodyBytes) || maxBodyBytes < 1) {
    throw new RangeError(`maxBodyBytes must be a whole number of bytes above 0; got ${options.maxBodyBytes}.`);
  }
  if (options.mode !== undefined && options.mode !== 'handle' && options.mode !== 'acknowledge') {
    throw new TypeError(`mode must be 'handle' or 'acknowledge'; got ${JSON.stringify(options.mode)}.`);
  }
  if (options.crypto !== undefined && options.crypto !== 'auto' && options.crypto !== 'web') {
    throw new TypeError(`crypto must be 'auto' or 'web'; got ${JSON.stringify(options.crypto)}.`);
  }
  if (options.bigNumbers !== undefined && options.bigNumbers !== 'number' && options.bigNumbers !== 'string') {
    throw new TypeError(
      `bigNumbers must be 'number' (default: numbers as JSON.parse gives them) or 'string' (numbers JSON.parse would change, as their exact text); got ${describe(options.bigNumbers)}.`,
    );
  }
  checkSignatureForms(options.signatureForms);
  checkDedupe(options.dedupe);
  checkEnqueue(options);
  if (options.insecureSkipVerification === true) return { secrets: null, deadlineMs, maxBodyBytes };
  const list = options.secret === undefined ? [] : Array.isArray(options.secret) ? options.secret : [options.secret];
  if (list.length === 0) {
    throw new TypeError(
      "secret is required: pass the Webhooks destination's sharedSecret (or several, during a rotation). " +
        'To accept unsigned requests anyway, set insecureSkipVerification: true.',
    );
  }
  list.forEach((s: unknown, i: number) => {
    if (!(typeof s === 'string' || s instanceof Uint8Array) || s.length === 0) {
      throw new TypeError(
        `secret${list.length > 1 ? `[${i}]` : ''} must be a non-empty string; check the environment variable that holds it.`,
      );
    }
  });
  return { secrets: list as readonly Secret[], deadlineMs, maxBodyBytes };
}

/** `enqueue` replaces handlers: the message is handled by whoever reads the queue, never here. */
function checkEnqueue<T>(options: ReceiverOptions<T>): void {
  if (options.enqueue === undefined) return;
  const handlers = options as { on?: unknown; onMessage?: unknown; onPayload?: unknown };
  if (handlers.on !== undefined || handlers.onMessage !== undefined || handlers.onPayload !== undefined) {
    throw new TypeError(
      'enqueue hands each verified message to a queue, so `on` / `onMessage` / `onPayload` would never run here: ' +
        'remove them and give the handlers to your worker (e.g. createWorker(queueName, { connection, on }) from @hookgate/bullmq).',
    );
  }
  if (options.mode === 'acknowledge') {
    throw new TypeError(
      "enqueue answers 200 once the queue holds the message; remove mode: 'acknowledge' (it would answer before that).",
    );
  }
  if ((options as { insecureAcceptBatches?: unknown }).insecureAcceptBatches) {
    throw new TypeError(
      'insecureAcceptBatches cannot be used with enqueue: each job holds one signed event, and a batch is signed over its first event only. ' +
        'Remove insecureAcceptBatches and turn batching off in the mapping ("Enable Batching" off).',
    );
  }
}

function checkSignatureForms(forms: unknown): void {
  if (forms === undefined) return;
  if (!Array.isArray(forms) || forms.length === 0) {
    throw new TypeError(
      `signatureForms must list at least one of ${SIGNATURE_FORMS.join(', ')}; got ${JSON.stringify(forms)}.`,
    );
  }
  forms.forEach((f: unknown, i) => {
    if (!SIGNATURE_FORMS.includes(f as SignatureForm)) {
      throw new TypeError(
        `signatureForms[${i}] must be one of ${SIGNATURE_FORMS.join(', ')}; got ${JSON.stringify(f)}.`,
      );
    }
  });
}

function checkDedupe(dedupe: unknown): void {
  if (dedupe === undefined || dedupe === false) return;
  if (typeof dedupe !== 'object' || dedupe === null) {
    throw new TypeError(
      `dedupe must be false or an object { store?, ttlMs?, inFlightTtlMs? }; got ${JSON.stringify(dedupe)}.`,
    );
  }
  const d = dedupe as Record<string, unknown>;
  for (const name of ['ttlMs', 'inFlightTtlMs'] as const) {
    const v = d[name];
    if (v !== undefined && !(Number.isInteger(v) && (v as number) > 0)) {
      throw new RangeError(
        // eslint-disable-next-line @typescript-eslint/no-base-to-string -- objects are named as such: a primitive here
        `dedupe.${name} must be a whole number of milliseconds above 0; got ${typeof v === 'object' && v !== null ? 'an object' : String(v)}.`,
      );
    }
  }
  const store = d.store as Record<string, unknown> | undefined;
  if (
    store !== undefined &&
    !(store && ['claim', 'complete', 'release'].every((m) => typeof store[m] === 'function'))
  ) {
    throw new TypeError(
      'dedupe.store must have claim, complete and release methods (see IdempotencyStore), or be left out for the in-memory store.',
    );
  }
}
