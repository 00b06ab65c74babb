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
import { pathOf, type LossyNumber } from '../../json/lossy-numbers.js';
import type { WebhookMessage } from '../../messages/types.js';
import { RequestContext } from '../handler-context.js';
import { getHeader } from '../headers.js';
import { MAX_ELEMENT_DEPTH, nestsDeeperThan } from '../json-depth.js';
import type { HandlerContext, MessageHandler } from '../options.js';
import type { AcceptedMessage } from '../receiver.js';
import type { ReceiverSetup } from '../setup.js';
import { bigNumbersAsText } from './big-numbers.js';
import { checkMessage, parseBody } from './check.js';
import { checkPlan } from './check-plan.js';
import { claimBatchElements } from './claim-batch.js';
import { refuse, type ReceiverRequest, type Refusal } from './request.js';
import { warnSignatureFailure } from './signature-warning.js';
import { checkSignature } from './verify.js';

/** How many element issues a refused batch's answer lists (the rest are counted). */
const MAX_LISTED_ISSUES = 20;

/**
 * A Webhooks (Actions) batch (a JSON array) through the receiver's steps, per element: refused (422)
 * unless accepted by name; parsed; its signature, when present, must match the first element's
 * `JSON.stringify`, the only thing the sender signed (else 401); then numbers parsing changed put back as
 * text (`bigNumbers: 'string'`; `ctx.lossyNumbers` per element, from the element); every element checked like a single
 * event (400 naming `/index/path`) and against the tracking plan before any is claimed; every element claimed by its own key
 * (`claimBatchElements`); then one hand-off whose handler runs each new element's handler in order.
 *
 * @example
 * if (setup.rules.isBatch?.(input.rawBody, input.parsedBody)) return acceptBatch(setup, request);
 */
export async function acceptBatch<TExtra>(
  setup: ReceiverSetup<TExtra>,
  request: ReceiverRequest<TExtra>,
): Promise<Refusal | { accepted: AcceptedMessage<TExtra>; handler: MessageHandler<WebhookMessage, TExtra> }> {
  if (setup.enqueue !== undefined) return refuse('batch_refused', BATCH_ENQUEUE_MESSAGE);
  if (setup.batches === false) return refuse('batch_refused', BATCH_REFUSED_MESSAGE);
  if (!setup.hasHandlers) return refuse('batch_refused', BATCH_NEEDS_HANDLERS_MESSAGE);
  const unparsed = parseBody(setup, request);
  if (unparsed) return unparsed;
  const elements = request.value;
  if (!Array.isArray(elements) || elements.length === 0) {
    return refuse('invalid_payload', 'The batch is empty: a Webhooks (Actions) batch holds at least one event.');
  }
  const firstSigned = await verifyFirstElement(setup, request, elements[0]);
  if (typeof firstSigned !== 'boolean') return firstSigned;
  // Only now: the signature covers the first element as parsed. The elements change in place.
  bigNumbersAsText(setup, request);
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
  const checked = await checkElements(setup, request, elements);
  if (!Array.isArray(checked)) return checked;
  const claims = await claimBatchElements(setup, elements, firstSigned);
  if ('code' in claims) return claims;
  if (claims.fresh.length === 0) {
    return refuse('duplicate', 'Every event of this batch was handled before; not run again.', { duplicate: true });
  }

  const { input, verification, receivedAt } = request;
  const uncovered = uncoveredIndexes(elements.length, firstSigned);
  const batchContext = new RequestContext(input.context, input.headers, undefined, verification, receivedAt);
  batchContext.lossyNumbers = Object.freeze(request.lossy.map((n) => n.path));
  const fresh = claims.fresh.map((i) => {
    const batch: BatchElementInfo = {
      index: i,
      size: elements.length,
      signed: firstSigned && i === 0,
      uncovered,
      skipped,
    };
    const extra = { ...(input.context as object | undefined), batch };
    const key = claims.keys[i];
    const element = checked[i]!;
    const context = new RequestContext(extra, input.headers, key, verification, receivedAt);
    if (element.planCheck) {
      context.planned = element.planCheck.planned;
      context.violations = element.planCheck.violations;
    }
    context.lossyNumbers = lossyIn(request.lossy, i);
    return { element, key, context };
  });
  let aborted = false;
  // Runs every new element's handler once, in order, settling each element's claim.
  const runElements = async () => {
    const errors: unknown[] = [];
    for (const { element, key, context } of fresh) {
      // After the deadline (503 answered) the rest is left for the sender's retry.
      if (aborted) {
        // Stryker disable next-line StringLiteral: any outcome but 'handled' releases the claim
        await claims.settle(key, 'failed');
        continue;
      }
      try {
        if (element.handler) await element.handler(element.message, context as unknown as HandlerContext<TExtra>);
        await claims.settle(key, 'handled');
      } catch (error) {
        // Stryker disable next-line StringLiteral: any outcome but 'handled' releases the claim
        await claims.settle(key, 'failed');
        errors.push(error);
      }
    }
    if (errors.length > 1) {
      throw new AggregateError(
        errors,
        `${errors.length} batch elements failed; the sender will retry the batch (handled elements are skipped).`,
      );
    }
    if (errors.length === 1) throw errors[0];
  };
  const accepted: AcceptedMessage<TExtra> = {
    kind: 'message',
    message: fresh.map((f) => f.element.message) as unknown as WebhookMessage,
    signedBody: firstSigned ? JSON.stringify(elements[0]) : undefined,
    context: batchContext as unknown as HandlerContext<TExtra>,
    // Each element settles its own claim as it runs.
    settle: () => Promise.resolve(),
    abort(reason) {
      aborted = true;
      RequestContext.abort(batchContext, reason);
      for (const { context } of fresh) RequestContext.abort(context, reason);
    },
  };
  return { accepted, handler: runElements };
}

/** The paths of the lossy numbers of element `index`, from the element (`properties.x`, not `[2].properties.x`). */
function lossyIn(lossy: readonly LossyNumber[], index: number): readonly string[] {
  return Object.freeze(lossy.filter((n) => n.at[0] === index).map((n) => pathOf(n.at.slice(1))));
}

/**
 * The batch's signature: it covers the first element's `JSON.stringify` only. `true` when it matched,
 * `false` for an unsigned batch taken as such (verification off, or `'including-unsigned'`), else the 401.
 */
async function verifyFirstElement<TExtra>(
  setup: ReceiverSetup<TExtra>,
  request: ReceiverRequest<TExtra>,
  first: unknown,
): Promise<boolean | Refusal> {
  const { secrets } = setup;
  if (secrets === null) return false;
  // Segment's code signs the first element's data and sends the batch unsigned when it is empty.
  if (first === null) {
    return setup.batches === 'including-unsigned' ? false : refuse('missing_signature', NULL_FIRST_BATCH_MESSAGE);
  }
  const signature = getHeader(request.input.headers, 'x-signature');
  if (signature === undefined || signature === '') {
    if (setup.batches === 'including-unsigned') return false;
    warnSignatureFailure(setup, 'missing');
    return refuse('missing_signature', UNSIGNED_BATCH_MESSAGE);
  }
  const { result } = await checkSignature(setup, secrets, { signature, parsedBody: first, forms: ['stringify'] });
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
  request.verification = { form: result.form, secretIndex: result.secretIndex };
  return true;
}

/** Every element through the check step, before any is claimed or run: the checked elements, or one refusal naming every issue. */
async function checkElements<TExtra>(
  setup: ReceiverSetup<TExtra>,
  request: ReceiverRequest<TExtra>,
  elements: unknown[],
): Promise<ReceiverRequest<TExtra>[] | Refusal> {
  const checked: ReceiverRequest<TExtra>[] = [];
  const issues: { path: string; message: string }[] = [];
  let first: Refusal | undefined;
  for (let i = 0; i < elements.length; i++) {
    const element: ReceiverRequest<TExtra> = { ...request, value: elements[i] };
    checked.push(element);
    if (elements[i] === null) continue; // skipped, not checked
    const refusal = (await checkMessage(setup, element, i)) ?? checkPlan(setup, element);
    if (refusal === undefined) continue;
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
