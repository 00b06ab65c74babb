import { numbersAsText } from '../../json/lossy-numbers.js';
import type { ReceiverSetup } from '../setup.js';
import type { Parsed } from './request.js';

/**
 * The step that, with `bigNumbers: 'string'`, puts each number parsing changed back as its exact text
 * (a string) in the parsed body, before the body is checked: the handler, a schema and `enqueue` see
 * `'12345678901234567890'` where JSON parsing would give 12345678901234567000. It runs after the
 * signature was checked (over the raw bytes, or for a batch over its first element as parsed), and
 * never refuses.
 *
 * @example
 * const withText = bigNumbersAsText(setup, parsed); // withText.value.properties.id === '12345678901234567890'
 */
export function bigNumbersAsText<TExtra, R extends Parsed>(setup: ReceiverSetup<TExtra>, request: R): R {
  if (setup.bigNumbers !== 'string') return request;
  return Object.assign(request, { value: numbersAsText(request.value, request.lossy()) });
}
