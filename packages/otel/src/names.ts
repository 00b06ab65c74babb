// Every name @hookgate/otel records, in one place: span names, attribute keys and metric names. Where
// OpenTelemetry's semantic conventions have a name (`http.response.status_code`, `url.full`,
// `error.type`, `messaging.*`), it is used; the rest is under `hookgate.`.

/**
 * The span names `openTelemetry()` records.
 *
 * @example
 * const receives = exporter.getFinishedSpans().filter((span) => span.name === SPAN.receive);
 */
export const SPAN = {
  /** One delivery a receiver answered. */
  receive: 'hookgate.receive',
  /** A receiver storing a message in its queue (`enqueue`): the job's parent span. */
  enqueue: 'hookgate.enqueue',
  /** One job attempt a worker ran (`@hookgate/bullmq`). */
  process: 'hookgate.process',
  /** One delivery attempt of the emulator. */
  deliver: 'hookgate.deliver',
} as const;

/**
 * The attribute keys `openTelemetry()` records on spans and metrics.
 *
 * @example
 * const refused = receives.filter((span) => span.attributes[ATTR.httpStatus] === 401);
 */
export const ATTR = {
  messageType: 'hookgate.message.type',
  messageId: 'hookgate.message.id',
  event: 'hookgate.event',
  answerCode: 'hookgate.answer.code',
  destination: 'hookgate.destination',
  dedupe: 'hookgate.dedupe',
  planViolations: 'hookgate.plan.violations',
  planRule: 'hookgate.plan.rule',
  planKeyword: 'hookgate.plan.keyword',
  attempt: 'hookgate.delivery.attempt',
  outcome: 'hookgate.delivery.outcome',
  retry: 'hookgate.delivery.retry',
  jobAttempt: 'hookgate.job.attempt',
  handlerOutcome: 'hookgate.handler.outcome',
  // OpenTelemetry's semantic conventions.
  httpStatus: 'http.response.status_code',
  httpMethod: 'http.request.method',
  urlFull: 'url.full',
  errorType: 'error.type',
  messagingSystem: 'messaging.system',
  messagingOperation: 'messaging.operation.type',
  messagingDestination: 'messaging.destination.name',
  messagingMessageId: 'messaging.message.id',
} as const;

/**
 * The metric names `openTelemetry()` records (durations in seconds, as OpenTelemetry's conventions ask).
 *
 * @example
 * const answers = resourceMetrics.scopeMetrics[0]?.metrics.find((m) => m.descriptor.name === METRIC.answers);
 */
export const METRIC = {
  answers: 'hookgate.receiver.answers',
  receiverDuration: 'hookgate.receiver.duration',
  handlerDuration: 'hookgate.handler.duration',
  planViolations: 'hookgate.plan.violations',
  enqueueDuration: 'hookgate.queue.enqueue.duration',
  deliveries: 'hookgate.emulator.deliveries',
  retries: 'hookgate.emulator.retries',
} as const;

/** The message types metrics are split by; any other `type` (a mapped Actions payload's) counts as `other`. */
export const MESSAGE_TYPES: ReadonlySet<string> = new Set([
  'track',
  'identify',
  'page',
  'screen',
  'group',
  'alias',
  'delete',
]);
