// Segment's "forward blocked events to a source": where a source's blocked call goes, and what its
// blocked record's reason adds about it (the target by name, its write key masked).
import { redactWriteKey } from '../redact.js';
import type { SourceRegistry, SourceState } from './source-registry.js';
import type { ResolvedProtocols } from '../protocols/schema-controls.js';

/**
 * The source a blocked call is forwarded to (`schemaControls.forwardBlockedTo`), if it exists, and the
 * words to add to the blocked record's reason (empty when the controls forward nowhere).
 *
 * @example
 * const { target, reason } = forwardBlocked(pipeline.sources, source.resolved.protocols);
 * // reason: '; forwarded to Quarantine (schemaControls.forwardBlockedTo)'
 */
export function forwardBlocked(
  sources: SourceRegistry,
  protocols: ResolvedProtocols | undefined,
): { target: SourceState | undefined; reason: string } {
  const to = protocols?.controls.forwardBlockedTo;
  if (to === undefined) return { target: undefined, reason: '' };
  if (!sources.has(to)) {
    return {
      target: undefined,
      reason: '; not forwarded: no source has the write key schemaControls.forwardBlockedTo names',
    };
  }
  const target = sources.get(to);
  const name = target.resolved.name ?? `source ${redactWriteKey(target.resolved.writeKey)}`;
  return { target, reason: `; forwarded to ${name} (schemaControls.forwardBlockedTo)` };
}
