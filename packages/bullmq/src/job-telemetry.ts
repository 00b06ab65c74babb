import type { PlanViolation, ProcessObservation, Telemetry } from '@hookgate/core';
import { messageFacts } from '@hookgate/core/internal';
import type { Job } from 'bullmq';
import type { HandoffJobData } from './job-data.js';

/**
 * A worker's processor, as BullMQ calls it; with telemetry, also given the attempt's observation.
 *
 * @example
 * const processor: JobProcessor<WebhookMessage> = async (job, _token, signal, observation) => {};
 */
export type JobProcessor<M> = (
  job: Job<HandoffJobData<M>>,
  token?: string,
  signal?: AbortSignal,
  observation?: ProcessObservation,
) => Promise<void>;

/**
 * A processor that reports each job attempt to the worker's `telemetry`, in the trace of the delivery
 * that stored the job (its `traceContext`); without telemetry, the processor itself.
 *
 * @example
 * new Worker(queueName, withTelemetry(telemetry, queueName, processor), workerOptions);
 */
export function withTelemetry<M>(
  telemetry: Telemetry | undefined,
  queueName: string,
  processor: JobProcessor<M>,
): JobProcessor<M> {
  if (telemetry === undefined) return processor;
  return (job, token, signal) =>
    telemetry.process(
      {
        queue: queueName,
        jobId: job.id,
        attempt: job.attemptsMade + 1,
        traceContext: job.data.traceContext,
        message: messageFacts(job.data.message),
      },
      (observation) => processor(job, token, signal, observation),
    );
}

/**
 * Reports the worker's tracking-plan check of a job's message to its observation: the rule and keyword
 * of each violation, nothing of the message.
 *
 * @example
 * reportViolations(observation, context);
 */
export function reportViolations(
  observation: ProcessObservation | undefined,
  { violations, planned }: { violations: readonly PlanViolation[]; planned: boolean },
): void {
  observation?.violations(
    violations.map(({ rule, keyword }) => ({ rule, keyword })),
    planned,
  );
}
