import { SPEC_EVENT_TYPES, type SpecEvent, type SpecEventType } from './spec-events.js';

/**
 * One way a body is not the whole Segment event its `type` says: a JSON path and what is wrong.
 *
 * @example
 * const line = (i: SpecEventIssue) => `${i.path} ${i.message}`;
 */
export interface SpecEventIssue {
  path: string;
  message: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Fields every event type carries, with their JSON type (`?` after the type: may be absent or null). */
const COMMON: Record<string, string> = {
  messageId: 'string',
  anonymousId: 'string|null?',
  userId: 'string|null?',
  context: 'object?',
  integrations: 'object?',
  timestamp: 'string',
  sentAt: 'string?',
  receivedAt: 'string',
  originalTimestamp: 'string?',
  channel: 'string?',
};
const PER_TYPE: Record<SpecEventType, Record<string, string>> = {
  track: { event: 'string', properties: 'object?' },
  identify: { traits: 'object?' },
  page: { name: 'string?', category: 'string?', properties: 'object?' },
  screen: { name: 'string?', category: 'string?', properties: 'object?' },
  group: { groupId: 'string', traits: 'object?' },
  alias: { previousId: 'string', userId: 'string' },
};

function typeOf(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
}

/**
 * Whether `value` is a Spec event type (`track`, `identify`, `page`, `screen`, `group`, `alias`).
 *
 * @example
 * isSpecEventType(body.type) ? routeToOn(body) : routeToOnPayload(body);
 */
export function isSpecEventType(value: unknown): value is SpecEventType {
  return typeof value === 'string' && (SPEC_EVENT_TYPES as readonly string[]).includes(value);
}

/**
 * Checks that a value is a whole Segment event as the Spec documents it (the fields the types
 * promise: `messageId`, `timestamp`, `receivedAt`, `event` on track, `groupId` on group, …, each of
 * its JSON type). Extra fields are kept and not checked. Returns no issues for a valid event.
 *
 * @example
 * specEventIssues({ type: 'track', messageId: 'm1' });
 * // [{ path: '/timestamp', message: 'is required (a string)' }, …, { path: '/event', … }]
 */
export function specEventIssues(value: unknown): SpecEventIssue[] {
  if (!isObject(value)) return [{ path: '/', message: `must be a JSON object; got ${typeOf(value)}` }];
  if (!isSpecEventType(value.type)) {
    return [
      {
        path: '/type',
        message: `must be one of ${SPEC_EVENT_TYPES.join(', ')}; got ${JSON.stringify(value.type) ?? 'nothing'}`,
      },
    ];
  }
  const issues: SpecEventIssue[] = [];
  const rules = { ...COMMON, ...PER_TYPE[value.type] };
  for (const [name, rule] of Object.entries(rules)) {
    const optional = rule.endsWith('?');
    const allowed = rule.replace('?', '').split('|');
    const v = value[name];
    // An optional field may be absent or null: clients in other languages send null for what they
    // leave out, and a 400 would lose the event for good (the sender does not retry it).
    if (v === undefined || (optional && v === null)) {
      if (!optional)
        issues.push({
          path: `/${name}`,
          message: `is required (${allowed.join(' or ')}) on a whole ${value.type} event`,
        });
      continue;
    }
    if (!allowed.includes(typeOf(v)))
      issues.push({ path: `/${name}`, message: `must be ${allowed.join(' or ')}; got ${typeOf(v)}` });
  }
  if (value.type !== 'alias' && value.userId == null && value.anonymousId == null) {
    issues.push({
      path: '/userId',
      message: 'or /anonymousId is required: the Spec identifies every event by one of them',
    });
  }
  return issues;
}

/**
 * A type guard over `specEventIssues`.
 *
 * @example
 * if (isSpecEvent(body)) console.log(body.type, body.messageId);
 */
export function isSpecEvent(value: unknown): value is SpecEvent {
  return specEventIssues(value).length === 0;
}
