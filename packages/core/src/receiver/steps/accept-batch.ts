import type { BatchElementInfo } from '../actions-options.js';
import {
  BATCH_ENQUEUE_MESSAGE,
  BATCH_NEEDS_HANDLERS_MESSAGE,
  BATCH_REFUSED_MESSAGE,
  NULL_FIRST_BATCH_MESSAGE,
  UNSIGNED_BATCH_MESSAGE,
  nullIndexes,
  uncoveredIndexes,
} from '../../actions/batch-rules.js';
import { lossyNumbersByElement, type LossyNumber } from '../../json/lossy-numbers.js';
import type { WebhookMessage } from '../../messages/types.js';
import { abortContext, handlerContext } from '../handler-context.js';
import { getHeader } from '../headers.js';
import { MAX_ELEMENT_DEPTH, nestsDeeperThan } from '../json-depth.js';
import type { MessageHandler } from '../options.js';
import type { AcceptedBatch, AcceptedMessage } from '../receiver.js';
import type { ReceiverSetup } from '../setup.js';
import { bigNumbersAsText } from './big-numbers.js';
import { checkMessage, parseBody } from './check.js';
import { checkPlan } from './check-plan.js';
import { claimBatchElements } from './claim-batch.js';
import {
  isRefusal,
  refuse,
  type ArrivedRequest,
  type Checked,
  type Parsed,
  type Refusal,
  type Verified,
} from './request.js';
import { warnSignatureFailure } from './signature-warning.js';
import { checkSignature } from './verify.js';

/** How many element issues a refused batch's answer lists (the rest are counted). */
const MAX_LISTED_ISSUES = 20;

/**
 * A batch that passed the steps: its new elements, each with the handler its type picked.
 *
 * @example
 * const { accepted, handlers } = passed;
 */
export interface PassedBatch<TExtra> {
  accepted: AcceptedBatch<TExtra>;
  handlers: readonly (MessageHandler<WebhookMessage, TExtra> | undefined)[];
}

/**
 * A Webhooks (Actions) batch (a JSON array) through the receiver's steps, per element: refused (422)
 * unless accepted by name; parsed; its signature, when present, must match the first element's
 * `JSON.stringify`, the only thing the sender signed (else 401); then numbers parsing changed put back as
 * text (`bigNumbers: 'string'`; `ctx.lossyNumbers` per element, from the element); every element checked like a single
 * event (400 naming `/index/path`) before any is claimed; every element claimed by its own key
 * (`claimBatchElements`); each new one checked against the tracking plan; then the batch, its own
 * kind: each new element an accepted message with its own context, claim and `settle`, run in order
 * by `runBatch`.
 *
 * @example
 * if (setup.rules.isBatch?.(input.rawBody, input.parsedBody)) return acceptBatch(setup, request);
 */
export async function acceptBatch<TExtra>(
  setup: ReceiverSetup<TExtra>,
  request: ArrivedRequest<TExtra>,
): Promise<Refusal | PassedBatch<TExtra>> {
  if (setup.enqueue !== undefined) return refuse('batch_refused', BATCH_ENQUEUE_MESSAGE);
  if (setup.batches === false) return refuse('batch_refused', BATCH_REFUSED_MESSAGE);
  if (!setup.hasHandlers) return refuse('batch_refused', BATCH_NEEDS_HANDLERS_MESSAGE);
  const parsed = parseBody(setup, request);
  if (isRefusal(parsed)) return parsed;
  const elements = parsed.value;
  if (!Array.isArray(elements) || elements.length === 0) {
    return refuse('invalid_payload', 'The batch is empty: a Webhooks (Actions) batch holds at least one event.');
  }
  const verified = await verifyFirstElement(setup, parsed, elements[0]);
  if (isRefusal(verified)) return verified;
  const firstSigned = verified.signedBody !== undefined;
  // Only now: the signature covers the first element as parsed. The elements change in place.
  bigNumbersAsText(setup, verified);
  // `null` where a mapping's data came out empty (Segment's code keeps the slot): skipped, reported.
  const skipped = nullIndexes(elements);
  if (skipped.length === elements.length) {
    return refuse('ok', 'Every element of this batch is null (its mapping gave no data); nothing to run.', { skipped });
  }

  // An explicit bound, the same on every stack (a worker thread's bigger one would serialize deeper).
  const deep = elements.findIndex((element) => nestsDeeperThan(element, MAX_ELEMENT_DEPTH));
  if (deep !== -1) {
    return refuse(
      'invalid_payload',
      `Batch element ${deep} is nested too deeply: more than ${MAX_ELEMENT_DEPTH} levels of objects and arrays; flatten it, or send the deep part as a string.`,
    );
  }
  // The lossy numbers of every element, from the element, sorted out once when first asked.
  let grouped: LossyNumber[][] | undefined;
  const lossyOfElement = (index: number) => (grouped ??= lossyNumbersByElement(verified.lossy()))[index];
  const checked = await checkElements(setup, verified, elements, lossyOfElement);
  if (!Array.isArray(checked)) return checked;
  const claims = await claimBatchElements(setup, elements, firstSigned);
  if ('code' in claims) return claims;
  if (claims.fresh.length === 0) {
    return refuse('duplicate', 'Every event of this batch was handled before; not run again.', { duplicate: true });
  }
  // Only the elements not handled before are checked against the plan (which may pick `onViolation`).
  for (const i of claims.fresh) checked[i] = checkPlan(setup, checked[i]!);

  const { input, verification, receivedAt, lossy } = verified;
  const uncovered = uncoveredIndexes(elements.length, firstSigned);
  const about = { headers: input.headers, verification, receivedAt };
  const extra = input.context as TExtra;
  const context = handlerContext({
    ...about,
    extra,
    dedupeKey: undefined,
    lossyNumbers: () => lossy().map((n) => n.path),
  });
  const signedBody = typeof verified.signedBody === 'string' ? verified.signedBody : undefined;
  const accepted = claims.fresh.map((i) => {
    const batch: BatchElementInfo = {
      index: i,
      size: elements.length,
      signed: firstSigned && i === 0,
      uncovered,
      skipped,
    };
    const key = claims.keys[i];
    const element = checked[i]!;
    const elementContext = handlerContext({
      ...about,
      extra: { ...extra, batch },
      dedupeKey: key,
      planCheck: element.planCheck,
      lossyNumbers: () => (lossyOfElement(i) ?? NONE).map((n) => n.path),
    });
    const message: AcceptedMessage<TExtra & { batch: BatchElementInfo }> = {
      kind: 'message',
      message: element.message,
      // The signature covers element 0 only.
      signedBody: batch.signed ? signedBody : undefined,
      context: elementContext,
      settle: (outcome) => claims.settle(key, outcome),
      abort: (reason) => abortContext(elementContext, reason),
    };
    return { message, handler: element.handler };
  });
  const elementsAccepted = accepted.map((a) => a.message);
  return {
    accepted: {
      kind: 'batch',
      elements: elementsAccepted,
      signedBody,
      context,
      abort(reason) {
        abortContext(context, reason);
        for (const element of elementsAccepted) element.abort(reason);
      },
    },
    handlers: accepted.map((a) => a.handler),
  };
}

const NONE: readonly LossyNumber[] = Object.freeze([]);

/**
 * The batch's signature: it covers the first element's `JSON.stringify` only. Adds what matched (the
 * signed body is that element's `JSON.stringify`); an unsigned batch taken as such (verification off,
 * or `'including-unsigned'`) goes on `unsigned`, with no signed body; else the 401.
 */
async function verifyFirstElement<TExtra, R extends ArrivedRequest<TExtra>>(
  setup: ReceiverSetup<TExtra>,
  request: R,
  first: unknown,
): Promise<Refusal | (R & Verified)> {
  const { secrets } = setup;
  const unsigned = () => Object.assign(request, { verification: UNSIGNED, signedBody: undefined });
  if (secrets === null) return unsigned();
  // Segment's code signs the first element's data and sends the batch unsigned when it is empty.
  if (first === null) {
    return setup.batches === 'including-unsigned' ? unsigned() : refuse('missing_signature', NULL_FIRST_BATCH_MESSAGE);
  }
  const signature = getHeader(request.input.headers, 'x-signature');
  if (signature === undefined || signature === '') {
    if (setup.batches === 'including-unsigned') return unsigned();
    warnSignatureFailure(setup, 'missing');
    return refuse('missing_signature', UNSIGNED_BATCH_MESSAGE);
  }
  const { result, signed } = await checkSignature(setup, secrets, {
    signature,
    parsedBody: first,
    forms: ['stringify'],
  });
  if (!result.ok) {
    warnSignatureFailure(setup, result.reason, false);
    if (setup.debug) {
      setup.logger.warn(
        `[hookgate] batch signature ${result.reason}: it does not match the first element's JSON.stringify (what Segment signs for a batch).`,
      );
    }
    // Not 'missing': an absent or empty header was answered above.
    return refuse(
      'invalid_signature',
      `${result.message} (a batch's X-Signature must match its first event, the only one Segment signs).`,
    );
  }
  return Object.assign(request, {
    verification: { form: result.form, secretIndex: result.secretIndex },
    signedBody: signed,
  });
}

const UNSIGNED: Verified['verification'] = Object.freeze({ form: 'unsigned', secretIndex: -1 });

/** Every element through the check step, before any is claimed or run: the checked elements, or one refusal naming every issue. */
async function checkElements<TExtra>(
  setup: ReceiverSetup<TExtra>,
  request: ArrivedRequest<TExtra> & Parsed,
  elements: unknown[],
  lossyOfElement: (index: number) => readonly LossyNumber[] | undefined,
): Promise<((Checked<TExtra> & Parsed) | null)[] | Refusal> {
  const checked: ((Checked<TExtra> & Parsed) | null)[] = [];
  const issues: { path: string; message: string }[] = [];
  let first: Refusal | undefined;
  for (let i = 0; i < elements.length; i++) {
    if (elements[i] === null) {
      checked.push(null); // skipped, not checked
      continue;
    }
    // The element's own numbers kept as text, from the element, for the plan to check them as numbers.
    const lossy = () => lossyOfElement(i) ?? NONE;
    const element = await checkMessage(setup, { ...request, value: elements[i], lossy }, i);
    if (!isRefusal(element)) {
      checked.push(element);
      continue;
    }
    const refusal = element;
    // A schema still running at the deadline, or one that threw, answers for the whole batch at once.
    if (refusal.code === 'deadline_exceeded' || refusal.code === 'handler_error') return refusal;
    first ??= refusal;
    const own = (refusal.extra?.issues as { path: string; message: string }[] | undefined) ?? [
      { path: '/', message: refusal.message },
    ];
    for (const issue of own)
      issues.push({ path: `/${i}${issue.path === '/' ? '' : issue.path}`, message: issue.message });
  }
  if (first === undefined) return checked;
  // A batch of thousands of bad elements names the first few: the answer stays small.
  const shown = issues.slice(0, MAX_LISTED_ISSUES);
  const more = issues.length > shown.length ? `; and ${issues.length - shown.length} more issues` : '';
  return refuse(
    first.code,
    `Batch element ${issues[0]!.path.split('/')[1]} is refused: ${shown.map((i) => `${i.path} ${i.message}`).join('; ')}${more}`,
    { issues: shown, issueCount: issues.length },
  );
}
