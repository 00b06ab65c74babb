// The spans of one trace as an indented tree, for the example's output: each span under its parent,
// with the attributes that say what happened.
import { SpanKind } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';

const SHOWN = [
  'hookgate.answer.code',
  'http.response.status_code',
  'hookgate.message.type',
  'hookgate.dedupe',
  'hookgate.job.attempt',
  'hookgate.plan.violations',
];

function describe(span: ReadableSpan): string {
  const facts = SHOWN.filter((key) => span.attributes[key] !== undefined).map(
    (key) => `${key.replace(/^hookgate\./, '')}=${String(span.attributes[key])}`,
  );
  return [`${span.name} (${SpanKind[span.kind]})`, ...facts].join(' ');
}

/**
 * The tree of the trace `traceId`, one line per span, children indented under their parent, in start order.
 *
 * @example
 * console.log(traceTree(exporter.getFinishedSpans(), receive.spanContext().traceId).join('\n'));
 */
export function traceTree(spans: readonly ReadableSpan[], traceId: string): string[] {
  const inTrace = spans
    .filter((s) => s.spanContext().traceId === traceId)
    .sort((a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1]);
  const ids = new Set(inTrace.map((s) => s.spanContext().spanId));
  const lines: string[] = [];
  const walk = (parentId: string | undefined, depth: number) => {
    for (const span of inTrace) {
      const parent = span.parentSpanContext?.spanId;
      const isChild = parentId === undefined ? parent === undefined || !ids.has(parent) : parent === parentId;
      if (!isChild) continue;
      lines.push(`${'  '.repeat(depth)}${describe(span)}`);
      walk(span.spanContext().spanId, depth + 1);
    }
  };
  walk(undefined, 0);
  return lines;
}
