import { lossyNumbersOnAsk } from '../../json/lossy-numbers.js';
import type { WebhookMessage } from '../../messages/types.js';
import { beforeDeadline, DEADLINE_PASSED } from '../before-deadline.js';
import type { RulesChecked } from '../destination-rules.js';
import { isPending, type MaybePromise } from '../maybe-promise.js';
import type { ReceiverSetup } from '../setup.js';
import { refuse, type ArrivedRequest, type Checked, type Parsed, type Refusal } from './request.js';

/** One fatal UTF-8 decoder: `decode` without `stream` keeps no state between calls. */
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The step that parses the verified body (400 `invalid_json`), with the adapter's parser when it gave
 * one, and how to find the numbers parsing changed (`request.lossy`: read from the raw text when
 * asked, and only when it has a long digit run or exponent). A body a framework parsed already is taken as it is: its raw text is
 * gone, so no number is found changed.
 *
 * @example
 * const parsed = parseBody(setup, verified);
 * if (!isRefusal(parsed)) console.log(parsed.value);
 */
export function parseBody<TExtra, R extends ArrivedRequest<TExtra>>(
  _setup: ReceiverSetup<TExtra>,
  request: R,
): Refusal | (R & Parsed) {
  const { rawBody, parsedBody, parse } = request.input;
  if (parsedBody !== undefined || rawBody === undefined)
    return Object.assign(request, { value: parsedBody, lossy: NO_LOSSY_NUMBERS });
  try {
    const text = typeof rawBody === 'string' ? rawBody : utf8.decode(rawBody);
    const parseText = parse ?? JSON.parse;
    return Object.assign(request, { value: parseText(text), lossy: lossyNumbersOnAsk(text, parseText) });
  } catch (e) {
    return refuse('invalid_json', `The body is not valid JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** A body a framework parsed before: its raw text is gone, so no number is found changed. */
const NO_LOSSY_NUMBERS: Parsed['lossy'] = () => NONE;
const NONE = Object.freeze([]);

/**
 * The step that checks the parsed value under the destination's rules (Classic: a valid webhook
 * message; Actions: a whole Segment event for `on`, else a payload for `onPayload`, checked by its
 * schema) and picks its handler. A schema still checking at the deadline is answered 503, one that
 * throws 500 (reported to `onError`): the sender retries both. `element` names a batch element in
 * those answers.
 *
 * @example
 * const checked = await checkMessage(setup, parsed); // at once unless a schema validates asynchronously
 * if (!isRefusal(checked)) console.log(checked.message, checked.handler);
 */
export function checkMessage<TExtra, R extends ArrivedRequest<TExtra> & Parsed>(
  setup: ReceiverSetup<TExtra>,
  request: R,
  element?: number,
): MaybePromise<Refusal | (R & Checked<TExtra>)> {
  const { rules, deadlineMs } = setup;
  const failed = (error: unknown) => {
    setup.onError(error, { phase: 'handler' });
    return refuse(
      'handler_error',
      `The schema failed while checking ${element === undefined ? 'the payload' : `batch element ${element}`} (see onError); the sender will retry.`,
    );
  };
  let pending: RulesChecked | PromiseLike<RulesChecked>;
  try {
    pending = rules.check(request.value);
  } catch (error) {
    return failed(error);
  }
  if (!isPending(pending)) return checkedRequest(setup, request, pending);
  // A schema's time is part of the time the sender waits.
  const waited = rules.checkMayWait ? beforeDeadline(pending, request.receivedAt.getTime(), deadlineMs) : pending;
  return Promise.resolve(waited).then((checked) => {
    if (checked !== DEADLINE_PASSED) return checkedRequest(setup, request, checked);
    return refuse(
      'deadline_exceeded',
      `The schema did not finish checking ${element === undefined ? 'the payload' : `the batch (element ${element})`} within ${deadlineMs} ms; the sender will retry.`,
    );
  }, failed);
}

/** The request with its checked message and handler, or the rules' refusal. */
function checkedRequest<TExtra, R extends ArrivedRequest<TExtra> & Parsed>(
  setup: ReceiverSetup<TExtra>,
  request: R,
  checked: RulesChecked,
): Refusal | (R & Checked<TExtra>) {
  if ('refusal' in checked) return checked.refusal;
  const picked = setup.rules.handlerFor(checked.message);
  return Object.assign(request, {
    message: checked.message as WebhookMessage,
    keyedBy: checked.keyedBy ?? checked.message,
    // With a plan, `on.track` keyed by event name gives the event's own handler, or none (unhandled).
    handler: setup.plan ? setup.plan.handlerFor(checked.message, picked) : picked,
  });
}
