import { UnrecoverableError } from 'bullmq';

/**
 * Which Segment destination a job came from: `classic` (Webhooks) or `actions` (Webhooks (Actions)).
 *
 * @example
 * const from: JobDestination = job.data.destination ?? 'classic';
 */
export type JobDestination = 'classic' | 'actions';

const NAMES: Record<JobDestination, string> = {
  classic: "the classic Webhooks destination (a receiver without destination, or destination: 'classic')",
  actions: "Webhooks (Actions) (a receiver with destination: 'actions')",
};

/**
 * Checks that a job was stored by a receiver of the destination this worker was created for, and
 * fails it for good otherwise (BullMQ's `UnrecoverableError`: no retry, kept in the failed set with
 * the reason): the two destinations carry different shapes, so running the other's handlers would
 * type the message wrongly. A job without `destination` was stored before jobs recorded it: classic.
 *
 * @example
 * checkJobDestination(job.data.destination, 'actions', job.id); // throws for a classic job
 */
export function checkJobDestination(stored: unknown, expected: JobDestination, jobId: string | undefined): void {
  const from = stored ?? 'classic';
  if (from === expected) return;
  const what = `Job ${jobId ?? '(no id)'}`;
  if (from !== 'classic' && from !== 'actions') {
    throw new UnrecoverableError(
      `${what} has destination ${JSON.stringify(from)}; jobs made by enqueueTo say 'classic' or 'actions'. Was it added to this queue by other code?`,
    );
  }
  const fix =
    expected === 'classic'
      ? "create a worker with destination: 'actions' for it (createWorker(queueName, { destination: 'actions', connection, on, onPayload }))"
      : "create a worker without destination: 'actions' for it (createWorker(queueName, { connection, on, onMessage }))";
  throw new UnrecoverableError(
    `${what} came from ${NAMES[from]}, but this worker was created for ${NAMES[expected]}; its handlers would get the wrong shape, so it was not run. ` +
      `Give each destination's receiver its own queue, and ${fix}; then re-run the job from the failed set (job.retry()).`,
  );
}
