import { SettingsError } from '../errors.js';

/**
 * How Webhooks (Actions) deliveries treat answers, after Segment's documented rule for destinations:
 * 2xx delivered; 5xx retried except 501 and 505 (dropped); 4xx not retried except 408, 410, 429 and
 * 460; timeouts and connection errors retried; all within the emulator's retry window (4 h by
 * default, `retry.windowMs`). Set through `responsePolicy.actions`.
 *
 * @example
 * createEmulator({ sources, responsePolicy: { actions: { retryStatuses: [408, 429], finalStatuses: [501] } } });
 */
export interface ActionsResponsePolicy {
  /** 4xx statuses retried like a 5xx. Default [408, 410, 429, 460]. */
  retryStatuses?: number[];
  /** 5xx statuses given up at once. Default [501, 505]. */
  finalStatuses?: number[];
}

/**
 * Segment's retried 4xx statuses for destinations: 408, 410, 429, 460 (the default of `responsePolicy.actions.retryStatuses`).
 *
 * @example
 * createEmulator({ responsePolicy: { actions: { retryStatuses: [...ACTIONS_RETRY_STATUSES, 409] } } });
 */
export const ACTIONS_RETRY_STATUSES: readonly number[] = Object.freeze([408, 410, 429, 460]);
/**
 * Segment's 5xx statuses that are dropped, not retried: 501 and 505 (the default of `responsePolicy.actions.finalStatuses`).
 *
 * @example
 * ACTIONS_FINAL_STATUSES.includes(501); // true
 */
export const ACTIONS_FINAL_STATUSES: readonly number[] = Object.freeze([501, 505]);

function statuses(value: unknown, path: string, fallback: readonly number[], low: number, high: number): number[] {
  if (value === undefined) return [...fallback];
  if (!Array.isArray(value) || value.some((s) => !Number.isInteger(s) || s < low || s > high))
    throw new SettingsError(
      path,
      `must be a list of HTTP status codes from ${low} to ${high}, e.g. [${fallback.join(', ')}]`,
    );
  return [...(value as number[])];
}

/**
 * Validates `responsePolicy.actions`, filling Segment's defaults.
 *
 * @example
 * resolveActionsResponsePolicy(undefined); // { retryStatuses: [408, 410, 429, 460], finalStatuses: [501, 505] }
 */
export function resolveActionsResponsePolicy(value: unknown): Required<ActionsResponsePolicy> {
  if (value === undefined)
    return { retryStatuses: [...ACTIONS_RETRY_STATUSES], finalStatuses: [...ACTIONS_FINAL_STATUSES] };
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new SettingsError('responsePolicy.actions', 'must be an object { retryStatuses?, finalStatuses? }');
  const v = value as Record<string, unknown>;
  for (const key of Object.keys(v))
    if (key !== 'retryStatuses' && key !== 'finalStatuses')
      throw new SettingsError(`responsePolicy.actions.${key}`, 'unknown setting (known: retryStatuses, finalStatuses)');
  return {
    retryStatuses: statuses(v.retryStatuses, 'responsePolicy.actions.retryStatuses', ACTIONS_RETRY_STATUSES, 400, 499),
    finalStatuses: statuses(v.finalStatuses, 'responsePolicy.actions.finalStatuses', ACTIONS_FINAL_STATUSES, 500, 599),
  };
}
