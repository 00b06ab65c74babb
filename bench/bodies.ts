// The 1 KB track bodies the receiver benchmarks send: one message shape, grown with products to 1 KB.
import { fixture } from '@hookgate/core';

/**
 * `message` as JSON, its `properties.products` grown until the text is at least 1,000 characters (each
 * product with a non-ASCII name and a price, as a real order has).
 *
 * @example
 * const raw = fillTo1k({ ...fixture('track'), properties: { products: [] } });
 */
export function fillTo1k<M extends { properties: { products: unknown[] } }>(message: M): string {
  const { products } = message.properties;
  for (let i = 0; JSON.stringify(message).length < 1000; i++)
    products.push({ sku: `SKU-${1000 + i}`, name: `Product ${i} — café`, price: 9.99 + i });
  return JSON.stringify(message);
}

/**
 * A realistic 1 KB track message, as the sender would serialize it (the adapters benchmark's body).
 *
 * @example
 * const raw = trackBody1k();
 */
export function trackBody1k(): string {
  return fillTo1k({
    ...fixture('track'),
    messageId: 'api-2Vx1Wq8ZpQm7Lr4Tn9Yk3Hs6Jd0',
    context: {
      ip: '203.0.113.9',
      library: { name: 'analytics-go', version: '2.0.0' },
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64)',
    },
    properties: { orderId: 'ord_77', revenue: 42.5, currency: 'EUR', products: [] },
  });
}
