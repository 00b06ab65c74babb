import type { MessageType } from './schemas.js';
import type { ExtraFields, MessageOf, WebhookMessage } from './types.js';

const timestamp = '2026-11-21T12:00:00.000Z';

/**
 * One realistic message of every type, in the shapes the Webhooks destination delivers, for tests.
 * Frozen: copy before changing (`structuredClone(fixtures.track)`).
 *
 * @example
 * import { fixtures, sign } from '@hookgate/core';
 * const body = JSON.stringify(fixtures.track);
 * await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json', 'x-signature': sign(body, secret) } });
 */
export const fixtures: { readonly [T in MessageType]: Readonly<MessageOf<T>> } = deepFreeze({
  page: {
    version: 1,
    type: 'page',
    userId: 'user_1001',
    timestamp,
    properties: {
      path: '/pricing',
      referrer: 'https://www.example.com/',
      title: 'Pricing',
      url: 'https://app.example.com/pricing',
    },
  },
  screen: {
    version: 1,
    type: 'screen',
    userId: 'user_1001',
    timestamp,
    name: 'Home',
    context: {
      device: { model: 'iPhone15,2', type: 'ios' },
      os: { name: 'iOS', version: '17.1' },
      app: { build: '1042', name: 'Example', version: '3.4.0' },
    },
  },
  identify: {
    version: 1,
    type: 'identify',
    userId: 'user_1001',
    timestamp,
    traits: { email: 'ada@example.com', name: 'Ada Lovelace', plan: 'premium', logins: 5 },
  },
  track: {
    version: 1,
    type: 'track',
    userId: 'user_1001',
    timestamp,
    event: 'Order Completed',
    properties: { orderId: 'ord_77', revenue: 42.5, currency: 'EUR', note: 'café ☕ — 日本' },
  },
  alias: {
    version: 1,
    type: 'alias',
    timestamp,
    'Previous ID': 'anon_5e1f',
    'User ID': 'user_1001',
  },
  group: {
    version: 1,
    type: 'group',
    userId: 'user_1001',
    groupId: 'acme_inc',
    timestamp,
    traits: { name: 'Acme Inc', employees: 120, plan: 'enterprise' },
  },
  delete: {
    type: 'delete',
    userId: 'user_1001',
    timestamp,
  },
});

/**
 * A fresh, mutable copy of the fixture of one type, with optional overrides. Documented fields are
 * type-checked; other fields (a `messageId`, say) may be added too, and stay typed on the result.
 *
 * @example
 * const msg = fixture('track', { event: 'Signed Up', messageId: 'm-1' });
 * msg.event; // 'Signed Up'
 * msg.messageId; // 'm-1' (string): added here, so typed here
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- `{}` is the identity of `&`: no overrides
export function fixture<T extends MessageType, const O extends Partial<MessageOf<T>> & ExtraFields = {}>(
  type: T,
  overrides?: O,
): MessageOf<T> & Omit<O, keyof MessageOf<T>> {
  return { ...(structuredClone(fixtures[type]) as unknown as MessageOf<T>), ...overrides } as MessageOf<T> &
    Omit<O, keyof MessageOf<T>>;
}

/** Every fixture in type order, for table-driven tests. @example for (const m of allFixtures()) send(m); */
export function allFixtures(): WebhookMessage[] {
  return Object.values(fixtures).map((m) => structuredClone(m) as WebhookMessage);
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
