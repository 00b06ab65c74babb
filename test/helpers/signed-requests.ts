// Signed requests and unique seed-shaped messages, shared by the adapters' tests.
import { fixture, sign, type MessageType, type WebhookMessage } from '@hookgate/core';

/** A seed-shaped message of `type` with a unique user, so dedupe never mistakes one test's for another's. */
export function uniqueMessage(
  type: MessageType = 'track',
  userId = `user_${Math.random().toString(36).slice(2)}`,
): WebhookMessage {
  return type === 'alias' ? fixture('alias', { 'User ID': userId }) : fixture(type, { userId } as never);
}

/** POSTs `text` as JSON, signed with `secret` over exactly those bytes; returns the status and body. */
export async function postSigned(
  url: string,
  text: string,
  { secret, headers = {} }: { secret: string; headers?: Record<string, string> },
) {
  const res = await fetch(url, {
    method: 'POST',
    body: text,
    headers: { 'content-type': 'application/json', 'x-signature': sign(text, secret), ...headers },
  });
  return { status: res.status, body: await res.text() };
}
