import type { WebhookMessage } from '../messages/types.js';
import type { DestinationRules, ReceiverParts, RulesRefusal } from '../receiver/destination-rules.js';
import { beforeDeadline, DEADLINE_PASSED } from '../receiver/before-deadline.js';
import { dedupeKey } from '../receiver/dedupe-key.js';
import { RequestContext } from '../receiver/handler-context.js';
import { getHeader } from '../receiver/headers.js';
import type { MessageHandler, ReceiverInput, Verification } from '../receiver/options.js';
import { receiverResponse, type ReceiverResponse } from '../receiver/responses.js';
import { verifyDetailed, verifyDetailedAsync, type DetailedVerifyResult } from '../signatures/verify.js';
import type { BatchElementInfo } from './actions-options.js';
import {
  BATCH_ENQUEUE_MESSAGE,
  BATCH_NEEDS_HANDLERS_MESSAGE,
  BATCH_REFUSED_MESSAGE,
  UNSIGNED_BATCH_MESSAGE,
  uncoveredIndexes,
} from './batch-rules.js';

/**
 * What the batch rules work with (internal): the receiver's parts, which batches are accepted, and
 * the destination's per-element check and handler choice.
 *
 * @example
 * const tools: BatchTools<{}> = { ...parts, accept: 'signed', rules };
 */
export interface BatchTools<TExtra> extends ReceiverParts {
  /** `false`: refuse every batch; `signed`: a signature matching the first element is required (when there is a secret); `including-unsigned`: also unsigned ones. */
  accept: false | 'signed' | 'including-unsigned';
  rules: DestinationRules<TExtra>;
}

/** One element of an accepted batch, ready to run. */
interface BatchElement {
  payload: unknown;
  context: RequestContext;
  key: string | undefined;
}

/** The accepted batch: what the receiver's `run` hands to the batch handler (internal). */
interface BatchPlan {
  elements: BatchElement[];
  aborted: { reason: unknown } | undefined;
}

type Refused = { kind: 'response'; response: ReceiverResponse };
/** The shape of the receiver's accepted message, built here for a batch. */
export interface AcceptedBatch<TExtra> {
  kind: 'message';
  message: unknown;
  signedBody: string | undefined;
  context: RequestContext;
  settle(outcome: 'handled' | 'failed'): Promise<void>;
  abort(reason?: unknown): void;
  /** Runs every new element's handler once, in order; settles each element's dedupe claim. */
  runElements: MessageHandler<WebhookMessage, TExtra>;
}

const plans = new WeakMap<object, BatchPlan>();
/** The dedupe namespace of batch elements no signature covered. */
const UNCOVERED_PREFIX = 'uncovered:';
/** How many element issues a refused batch's answer lists (the rest are counted). */
const MAX_LISTED_ISSUES = 20;
const utf8 = new TextDecoder('utf-8', { fatal: true });
const SETTLED = Promise.resolve();

const refused = (
  code: Parameters<typeof receiverResponse>[0],
  message: string,
  extra?: Record<string, unknown>,
): Refused => ({
  kind: 'response',
  response: receiverResponse(code, message, extra),
});

/**
 * Accepts a Webhooks (Actions) batch (a JSON array) under the batch rules: refused (422) unless
 * accepted by name; its signature, when present, must match the first element's `JSON.stringify`
 * (else 401); every element checked like a single event (400 naming `/index/path`); every element
 * claimed in the dedupe store by its own key (`messageId`, else the digest of its JSON), so an
 * element handled before is skipped. Internal: `createReceiver` calls it for array bodies.
 *
 * @example
 * if (isBatchBody(input.rawBody, input.parsedBody)) return acceptBatch(input, receivedAt, tools);
 */
export function acceptBatch<TExtra>(
  input: ReceiverInput<TExtra>,
  receivedAt: Date,
  tools: BatchTools<TExtra>,
): Refused | AcceptedBatch<TExtra> | Promise<Refused | AcceptedBatch<TExtra>> {
  if (tools.enqueues) return refused('batch_refused', BATCH_ENQUEUE_MESSAGE);
  if (tools.accept === false) return refused('batch_refused', BATCH_REFUSED_MESSAGE);
  if (!tools.canRunElements) return refused('batch_refused', BATCH_NEEDS_HANDLERS_MESSAGE);

  let value: unknown = input.parsedBody;
  if (value === undefined) {
    try {
      const raw = input.rawBody!;
      const text = typeof raw === 'string' ? raw : utf8.decode(raw);
      value = input.parse === undefined ? JSON.parse(text) : input.parse(text);
    } catch (e) {
      return refused('invalid_json', `The body is not valid JSON: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  const elements = value as unknown[];
  if (!Array.isArray(elements) || elements.length === 0)
    return refused('invalid_payload', 'The batch is empty: a Webhooks (Actions) batch holds at least one event.');

  // 1. The signature: the first element's JSON.stringify, the only thing the sender signed.
  const signature = getHeader(input.headers, 'x-signature');
  if (tools.secrets === null)
    return checked(input, receivedAt, tools, elements, { form: 'unsigned', secretIndex: -1 }, false);
  if (signature === undefined || signature === '') {
    if (tools.accept !== 'including-unsigned') return refused('missing_signature', UNSIGNED_BATCH_MESSAGE);
    return checked(input, receivedAt, tools, elements, { form: 'unsigned', secretIndex: -1 }, false);
  }
  const verifyInput = { signature, secret: tools.secrets, parsedBody: elements[0], forms: ['stringify'] as const };
  const after = ({ result }: DetailedVerifyResult) => {
    if (!result.ok) {
      tools.debug?.(
        `[hookgate] batch signature ${result.reason}: it does not match the first element's JSON.stringify (what Segment signs for a batch).`,
      );
      return refused(
        result.reason === 'missing' ? 'missing_signature' : 'invalid_signature',
        `${result.message} (a batch's X-Signature must match its first event, the only one Segment signs).`,
      );
    }
    return checked(input, receivedAt, tools, elements, { form: result.form, secretIndex: result.secretIndex }, true);
  };
  if (tools.useSync) return after(verifyDetailed(verifyInput));
  return verifyDetailedAsync(verifyInput).then(after);
}

async function checked<TExtra>(
  input: ReceiverInput<TExtra>,
  receivedAt: Date,
  tools: BatchTools<TExtra>,
  elements: unknown[],
  verification: Verification,
  firstSigned: boolean,
): Promise<Refused | AcceptedBatch<TExtra>> {
  // 2. Every element valid, before any is claimed or run.
  const payloads: unknown[] = [];
  const issues: { path: string; message: string }[] = [];
  let firstRefusal: RulesRefusal | undefined;
  for (let i = 0; i < elements.length; i++) {
    let result;
    try {
      const pending = tools.rules.check(elements[i]);
      result =
        pending instanceof Promise ? await beforeDeadline(pending, receivedAt.getTime(), tools.deadlineMs) : pending;
      if (result === DEADLINE_PASSED) {
        return refused(
          'deadline_exceeded',
          `The schema did not finish checking the batch (element ${i}) within ${tools.deadlineMs} ms; the sender will retry.`,
        );
      }
    } catch (error) {
      // A user's schema threw: reported like a handler failure, answered 500 (the sender retries).
      tools.onError(error, { phase: 'handler' });
      return refused(
        'handler_error',
        `The schema failed while checking batch element ${i} (see onError); the sender will retry.`,
      );
    }
    if ('refusal' in result) {
      firstRefusal ??= result.refusal;
      const own = (result.refusal.extra?.issues as { path: string; message: string }[] | undefined) ?? [
        { path: '/', message: result.refusal.message },
      ];
      for (const issue of own)
        issues.push({ path: `/${i}${issue.path === '/' ? '' : issue.path}`, message: issue.message });
    } else payloads.push(result.message);
  }
  if (firstRefusal) {
    // A batch of thousands of bad elements names the first few: the answer stays small.
    const shown = issues.slice(0, MAX_LISTED_ISSUES);
    const more = issues.length > shown.length ? `; and ${issues.length - shown.length} more issues` : '';
    return refused(
      firstRefusal.code,
      `Batch element ${issues[0]!.path.split('/')[1]} is refused: ${shown.map((i) => `${i.path} ${i.message}`).join('; ')}${more}`,
      { issues: shown, issueCount: issues.length },
    );
  }

  // 3. Dedupe per element: each keyed by its messageId, else the digest of its JSON.
  const uncovered = uncoveredIndexes(elements.length, firstSigned);
  const signedBody = firstSigned ? JSON.stringify(elements[0]) : undefined;
  const keys: (string | undefined)[] = [];
  const claimed: string[] = [];
  const release = async () => {
    for (const key of claimed) {
      try {
        await tools.store!.release(key);
      } catch {
        // Its in-flight claim expires on its own.
      }
    }
  };
  const settleOne = async (key: string | undefined, outcome: 'handled' | 'failed') => {
    if (!tools.store || key === undefined) return;
    try {
      if (outcome === 'handled') await tools.store.complete(key, tools.ttlMs);
      else await tools.store.release(key);
    } catch (error) {
      tools.onError(error, { dedupeKey: key, phase: 'store' });
    }
  };

  const fresh: number[] = [];
  // Keys claimed by this batch: an element repeated inside it runs once (its second claim would
  // otherwise find the first one's in-flight claim and answer 503 on every retry).
  const inThisBatch = new Set<string>();
  for (let i = 0; i < elements.length; i++) {
    if (!tools.store) {
      keys.push(undefined);
      fresh.push(i);
      continue;
    }
    let text: string;
    try {
      text = JSON.stringify(elements[i]);
    } catch (error) {
      // Nested beyond what JSON.stringify can walk: Segment's code could not have serialized it either.
      await release();
      return refused(
        'invalid_payload',
        `Batch element ${i} is nested too deeply to serialize (${error instanceof Error ? error.message : String(error)}); Segment's code could not have sent it.`,
      );
    }
    const signedKey = await dedupeKey(elements[i], text);
    // An element no signature covered claims its key in a namespace of its own: anyone could have
    // written it, so it must not mark as handled (and so suppress) a later signed delivery of the same
    // messageId or bytes. It is still skipped when a signed delivery of it was handled.
    const covered = firstSigned && i === 0;
    const key = covered ? signedKey : `${UNCOVERED_PREFIX}${signedKey}`;
    keys.push(key);
    if (inThisBatch.has(key) || inThisBatch.has(signedKey)) continue;
    inThisBatch.add(key);
    let claim;
    let signedClaim;
    try {
      claim = await tools.store.claim(key, tools.inFlightTtlMs);
      if (claim === 'claimed' && !covered) {
        // Read the signed namespace without keeping a claim there.
        signedClaim = await tools.store.claim(signedKey, tools.inFlightTtlMs);
        if (signedClaim === 'claimed') await tools.store.release(signedKey);
      }
    } catch (error) {
      if (claim === 'claimed') claimed.push(key);
      await release();
      tools.onError(error, { dedupeKey: key, phase: 'store' });
      return refused('store_unavailable', 'The dedupe store is unavailable; the sender will retry.');
    }
    if (claim === 'in-flight' || signedClaim === 'in-flight') {
      if (claim === 'claimed') claimed.push(key);
      await release();
      return refused('in_flight', `Batch element ${i} is being handled right now; the sender will retry.`);
    }
    if (claim !== 'claimed') continue;
    if (signedClaim === 'done') {
      // Handled before as a signed delivery: remembered here too, not run again.
      await settleOne(key, 'handled');
      continue;
    }
    claimed.push(key);
    fresh.push(i);
  }

  if (fresh.length === 0)
    return refused('duplicate', 'Every event of this batch was handled before; not run again.', { duplicate: true });

  const batchContext = new RequestContext(input.context, input.headers, undefined, verification, receivedAt);
  const plan: BatchPlan = {
    aborted: undefined,
    elements: fresh.map((i) => {
      const batch: BatchElementInfo = { index: i, size: elements.length, signed: firstSigned && i === 0, uncovered };
      const extra = { ...(input.context as object | undefined), batch };
      return {
        payload: payloads[i],
        key: keys[i],
        context: new RequestContext(extra, input.headers, keys[i], verification, receivedAt),
      };
    }),
  };
  const message = plan.elements.map((e) => e.payload);
  plans.set(message, plan);

  const runElements: MessageHandler<WebhookMessage, TExtra> = async () => {
    const errors: unknown[] = [];
    for (const element of plan.elements) {
      // After the deadline (503 answered) the rest is left for the sender's retry.
      if (plan.aborted) {
        await settleOne(element.key, 'failed');
        continue;
      }
      const handler = tools.rules.handlerFor(element.payload);
      try {
        if (handler) await handler(element.payload as WebhookMessage, element.context as never);
        await settleOne(element.key, 'handled');
      } catch (error) {
        await settleOne(element.key, 'failed');
        errors.push(error);
      }
    }
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1)
      throw new AggregateError(
        errors,
        `${errors.length} batch elements failed; the sender will retry the batch (handled elements are skipped).`,
      );
  };

  return {
    kind: 'message',
    message,
    signedBody,
    context: batchContext,
    // Each element settles its own claim as it runs.
    settle: () => SETTLED,
    abort(reason) {
      plan.aborted ??= { reason };
      RequestContext.abort(batchContext, reason);
      for (const element of plan.elements) RequestContext.abort(element.context, reason);
    },
    runElements,
  };
}
