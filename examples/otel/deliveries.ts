// The example's deliveries, signed as the sender signs them (hex HMAC-SHA1 of the JSON body, in
// X-Signature): a valid one, the same again (the sender's retry), a forged one, one that breaks the plan.
import { fixture, sign } from '@hookgate/core';

/** One delivery sent, and the receiver's answer. */
export interface Sent {
  name: string;
  status: number;
  code: string;
}

/**
 * Sends the four deliveries to `url` in order and returns the answers.
 *
 * @example
 * for (const s of await sendDeliveries(url, secret)) console.log(s.name, s.status, s.code);
 */
export async function sendDeliveries(url: string, secret: string): Promise<Sent[]> {
  const order = (messageId: string, total: unknown) =>
    JSON.stringify(
      fixture('track', { messageId, event: 'Order Completed', properties: { order_id: messageId, total } } as never),
    );
  const valid = order(`order-${Date.now()}`, 42.5);
  const violating = order(`order-${Date.now()}-b`, '42.50');
  const deliveries = [
    { name: 'valid', body: valid, signature: sign(valid, secret) },
    { name: 'duplicate (the retry)', body: valid, signature: sign(valid, secret) },
    { name: 'forged', body: valid.replace('42.5', '0.5'), signature: sign(valid, secret) },
    { name: 'breaks the plan', body: violating, signature: sign(violating, secret) },
  ];
  const sent: Sent[] = [];
  for (const { name, body, signature } of deliveries) {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-signature': signature },
      body,
    });
    const answer = (await response.json()) as { code: string };
    sent.push({ name, status: response.status, code: answer.code });
  }
  return sent;
}
