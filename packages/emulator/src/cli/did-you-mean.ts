import { nearestName } from '@hookgate/core/internal';

/**
 * The "; did you mean …?" tail for a mistyped command, flag or message type, using core's
 * nearest-name rule; empty when no candidate is close enough to be a likely typo.
 *
 * @example
 * didYouMean('trak', ['page', 'track']); // '; did you mean "track"?'
 * didYouMean('too', ['to', 'secret'], '--'); // '; did you mean --to?'
 */
export function didYouMean(name: string, candidates: readonly string[], prefix = ''): string {
  const near = nearestName(name, candidates);
  if (near === undefined) return '';
  return prefix ? `; did you mean ${prefix}${near}?` : `; did you mean ${JSON.stringify(near)}?`;
}
