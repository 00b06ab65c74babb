import type { Batch } from './batch.js';
import type { DebugLog } from './debug-log.js';
import { DeliveryError } from './errors.js';
import type { ResolvedOptions } from './options.js';
import { backoffDelay, isRetryableError, isRetryableStatus, parseRetryAfter } from './retry.js';
import type { PostOutcome, Transport } from './transport.js';

/** What sending a batch needs from the client that cut it. */
export interface BatchSender {
  readonly options: ResolvedOptions;
  readonly transport: Transport;
  readonly log: DebugLog | undefined;
  /** Aborts the requests in flight when the client gives up (`close({ timeoutMs })`). */
  readonly signal: AbortSignal;
  /** Why what is left is given up (`close({ timeoutMs })` ran out), or undefined. */
  readonly abandoned: () => string | undefined;
  /** Waits `ms` before a retry, or less if the client gives up meanwhile. */
  readonly pause: (ms: number) => Promise<void>;
  /** Called once the batch is settled (accepted, refused, or given up and reported). */
  readonly settle: (batch: Batch) => void;
}

/**
 * Sends a batch until the server accepts it (reported to `onFlush`), refuses it, or retries run out
 * (reported to `onError`); retries 5xx/408/429 and network errors after a backoff or `Retry-After`.
 * Never rejects; settles the batch at the end.
 */
export async function deliverBatch(sender: BatchSender, batch: Batch): Promise<void> {
  const { maxRetries, timeoutMs } = sender.options;
  batch.startedAt = Date.now();
  try {
    for (;;) {
      const abandonedBefore = sender.abandoned();
      if (abandonedBefore !== undefined) {
        failBatch(
          sender,
          batch,
          'closed',
          `${abandonedBefore} while the batch waited for a retry${batch.attempts > 0 ? ` (after ${batch.attempts} attempt(s))` : ''}`,
        );
        return;
      }
      batch.attempts++;
      const started = Date.now();
      const outcome = await sender.transport.post(batch.body(), sender.signal);
      if (outcome.kind === 'answer' && outcome.status >= 200 && outcome.status < 300) {
        sender.log?.(
          'sent',
          `${batch.count} message(s): HTTP ${outcome.status} in ${Date.now() - started} ms (attempt ${batch.attempts})`,
        );
        report(() =>
          sender.options.onFlush?.({
            count: batch.count,
            messageIds: batch.ids,
            bytes: batch.bytes,
            status: outcome.status,
            attempts: batch.attempts,
            durationMs: Date.now() - batch.startedAt,
          }),
        );
        return;
      }
      // close({ timeoutMs }) may have given up while the request was awaited.
      const abandoned = sender.abandoned();
      if (abandoned !== undefined && outcome.kind === 'failure' && outcome.error.name === 'AbortError') {
        failBatch(
          sender,
          batch,
          'closed',
          `${abandoned} with the request in flight (aborted: the server may have received it)`,
          outcome,
        );
        return;
      }
      const detail = describeOutcome(outcome, timeoutMs);
      const retryable =
        outcome.kind === 'failure' ? isRetryableError(outcome.error) : isRetryableStatus(outcome.status);
      if (!retryable || batch.attempts > maxRetries) {
        failBatch(sender, batch, retryable ? 'retries-exhausted' : 'rejected', detail, outcome);
        return;
      }
      if (abandoned !== undefined) {
        failBatch(
          sender,
          batch,
          'closed',
          `${abandoned} after attempt ${batch.attempts} failed (${detail}); not retried`,
          outcome,
        );
        return;
      }
      const retryAfter = outcome.kind === 'answer' ? parseRetryAfter(outcome.retryAfter) : undefined;
      const delay = retryAfter ?? backoffDelay(batch.attempts);
      sender.log?.(
        'retried',
        `${batch.count} message(s) in ${delay} ms${retryAfter !== undefined ? ' (Retry-After)' : ''}: ${detail} (attempt ${batch.attempts} of ${maxRetries + 1})`,
      );
      await sender.pause(delay);
    }
  } catch (error) {
    failBatch(sender, batch, 'rejected', `unexpected error: ${(error as Error).message}`, undefined, error);
  } finally {
    sender.settle(batch);
  }
}

/** Reports a batch given up to `onError`, as a `DeliveryError` with its messages. */
export function failBatch(
  sender: Pick<BatchSender, 'options' | 'log'>,
  batch: Batch,
  reason: DeliveryError['reason'],
  detail: string,
  outcome?: PostOutcome,
  cause?: unknown,
): void {
  const status = outcome?.kind === 'answer' ? outcome.status : undefined;
  const error = new DeliveryError(reason, batch.messages(), batch.attempts, detail, status, {
    cause: cause ?? (outcome?.kind === 'failure' ? outcome.error : undefined),
  });
  sender.log?.('failed', error.message);
  report(() => sender.options.onError(error));
}

/** Runs a user callback; one that throws must not break delivery. */
function report(callback: () => void): void {
  try {
    callback();
  } catch (error) {
    process.emitWarning(
      `@hookgate/client: an onFlush/onError callback threw: ${(error as Error)?.message ?? String(error)}`,
    );
  }
}

/** A failed attempt in words: the status and the server's answer, the timeout, or the network error. */
function describeOutcome(outcome: PostOutcome, timeoutMs: number): string {
  if (outcome.kind === 'answer') {
    const body = outcome.body.trim(); // the whole answer as kept by the transport (1 KB): never cut mid-sentence
    return `HTTP ${outcome.status}${body ? `: ${body}` : ''}`;
  }
  if (outcome.timedOut) return `timeout: no answer within ${timeoutMs} ms`;
  const code = outcome.error.code;
  return code && !outcome.error.message.includes(code) ? `${code}: ${outcome.error.message}` : outcome.error.message;
}
