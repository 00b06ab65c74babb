/** The events written when `DEBUG=analytics`. */
export type DebugEvent = 'ready' | 'queued' | 'rejected' | 'flushed' | 'sent' | 'retried' | 'failed' | 'closed';

/** Writes one debug line; absent when debugging is off, so a call costs nothing then. */
export type DebugLog = (event: DebugEvent, detail: string) => void;

/**
 * Whether `DEBUG` turns on this library's logging: a comma- or space-separated list holding
 * `analytics` (or `*`), as the `debug` package reads it; `-analytics` turns it off.
 */
export function debugEnabled(value: string | undefined): boolean {
  if (!value) return false;
  const names = value.split(/[\s,]+/).filter(Boolean);
  if (names.includes('-analytics')) return false;
  return names.includes('analytics') || names.includes('*');
}

/**
 * The logger for `DEBUG=analytics`, or `undefined` when off. Lines go to stderr as
 * `analytics <ISO time> <event> <detail>`. Callers never pass the write key: it is not in any line.
 */
export function createDebugLog(env: string | undefined = process.env.DEBUG): DebugLog | undefined {
  if (!debugEnabled(env)) return undefined;
  return (event, detail) => {
    process.stderr.write(`analytics ${new Date().toISOString()} ${event} ${detail}\n`);
  };
}
