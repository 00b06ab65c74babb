import { fixture, type MessageType, type WebhookMessage } from '@hookgate/core';

/** The ids that make one case's message unique, so that runs never look like duplicates of each other. */
export interface CaseIds {
  userId: string;
  messageId: string;
  timestamp: string;
}

/**
 * The fixture of a type made unique for one case: its own user id (`"User ID"` on alias), the current
 * time, and a `messageId` (not on delete, which carries type, userId and timestamp only).
 *
 * @example
 * const msg = caseMessage('alias', { userId: 'c-1', messageId: 'm-1', timestamp: new Date().toISOString() });
 */
export function caseMessage(type: MessageType, ids: CaseIds): WebhookMessage {
  const message = fixture(type) as WebhookMessage & Record<string, unknown>;
  message.timestamp = ids.timestamp;
  if (type === 'alias') message['User ID'] = ids.userId;
  else message.userId = ids.userId;
  if (type !== 'delete') message.messageId = ids.messageId;
  return message;
}

/** A body whose bytes `JSON.stringify` of its parse does not reproduce, so only raw-body verification accepts it. */
export interface RawBodyVariant {
  id: string;
  title: string;
  build(ids: CaseIds): string;
}

const head = (ids: CaseIds) =>
  `{"version":1,"type":"track","userId":${JSON.stringify(ids.userId)},"messageId":${JSON.stringify(ids.messageId)},"timestamp":${JSON.stringify(ids.timestamp)},"event":"Conformance Raw Body",`;

/**
 * The raw-body cases: number formats, `\u` escapes, escaped slashes, integer-like keys. A receiver that
 * re-serializes before verifying computes the HMAC over other bytes and refuses them.
 *
 * @example
 * for (const v of RAW_BODY_VARIANTS) console.log(v.id, v.build(ids));
 */
export const RAW_BODY_VARIANTS: readonly RawBodyVariant[] = [
  {
    id: 'raw-body-number-format',
    title: 'number written 1.0 (JSON.stringify gives 1)',
    build: (ids) => `${head(ids)}"properties":{"quantity":1.0,"revenue":2.50}}`,
  },
  {
    id: 'raw-body-unicode-escape',
    title: 'string with \\u00E9 (JSON.stringify gives é)',
    build: (ids) => `${head(ids)}"properties":{"note":"caf\\u00E9"}}`,
  },
  {
    id: 'raw-body-escaped-slash',
    title: 'string with \\/ (JSON.stringify gives /)',
    build: (ids) => `${head(ids)}"properties":{"url":"https:\\/\\/example.com\\/pricing"}}`,
  },
  {
    id: 'raw-body-integer-keys',
    title: 'integer-like keys after others (JSON.stringify moves them first)',
    build: (ids) => `${head(ids)}"properties":{"sku":"A-1","10":"ten","2":"two"}}`,
  },
];
