// The real Webhooks (Actions) sender: Segment's own destination code (@segment/action-destinations
// 3.387.0, its Webhook destination) run through @segment/actions-core's Destination, exactly as
// Segment's servers run it: a subscription ({ subscribe, partnerAction, mapping }) and settings.
import { createRequire } from 'node:module';

const requireHere = createRequire(import.meta.url);
// Both packages are CommonJS (their ESM build does not load under Node's resolver); actions-core is
// taken from action-destinations' own dependency tree, the one its Webhook destination was built for.
const requireDestinations = createRequire(requireHere.resolve('@segment/action-destinations'));
const { Destination } = requireDestinations('@segment/actions-core') as {
  Destination: new (definition: unknown) => {
    onEvent(event: object, settings: object): Promise<unknown[]>;
    onBatch(events: object[], settings: object): Promise<unknown[]>;
  };
};
const webhookModule = requireDestinations('./destinations/webhook/index.js') as { default: unknown };
const webhook = new Destination(webhookModule.default);

/** The version of Segment's destination code that sends here. */
export const SEGMENT_ACTION_DESTINATIONS_VERSION = (
  requireHere('@segment/action-destinations/package.json') as { version: string }
).version;

/** A subscription's mapping, in Segment's own format. */
export interface ActionsMapping {
  url: string;
  method?: 'POST' | 'PUT' | 'PATCH';
  headers?: Record<string, string>;
  data?: unknown;
  enable_batching?: boolean;
  batch_size?: number;
}

/** What Segment's code answered: `ok`, or the HTTP status its request got back. */
export interface SendOutcome {
  ok: boolean;
  status: number | undefined;
  error?: string;
}

/** What a rejection from Segment's code means: the receiver's status; anything else is rethrown. */
function outcomeOf(error: unknown): SendOutcome {
  const e = error as { response?: { status?: number }; status?: number; message?: string };
  // Only an answer from the receiver has a response; anything else (a mapping Segment's code refused) is a test bug.
  if (e.response?.status === undefined) throw error;
  return { ok: false, status: e.response.status, error: e.message };
}

/**
 * Settings in the format Segment's runtime hands its destination: the shared secret and one
 * subscription, or several (each `{ subscribe, partnerAction: 'send', mapping }`).
 */
export interface SegmentSettings {
  sharedSecret?: string;
  subscription?: object;
  subscriptions?: object[];
}

/**
 * Runs one event through Segment's Webhook destination (`Destination.onEvent`) with the settings as
 * given (nothing added); resolves and rejects exactly as Segment's code does.
 *
 * @example
 * await segmentOnEvent(event, { sharedSecret: 'secret', subscription: { subscribe: 'type = "track"', partnerAction: 'send', mapping: { url, data: { '@path': '$.' } } } });
 */
export function segmentOnEvent(event: object, settings: SegmentSettings): Promise<unknown[]> {
  return webhook.onEvent(event, settings);
}

/**
 * Runs events as one batch through Segment's Webhook destination (`Destination.onBatch`) with the
 * settings as given (the subscription's mapping sets `enable_batching` and `batch_size`); resolves and
 * rejects exactly as Segment's code does.
 *
 * @example
 * await segmentOnBatch([a, b], { sharedSecret: 'secret', subscription: { subscribe: 'type = "track"', partnerAction: 'send', mapping: { url, enable_batching: true, batch_size: 10 } } });
 */
export function segmentOnBatch(events: object[], settings: SegmentSettings): Promise<unknown[]> {
  return webhook.onBatch(events, settings);
}

/** Segment's settings for `mapping` under one subscription, with the Webhook's defaults (POST, the whole event). */
function settings(mapping: ActionsMapping, sharedSecret: string | undefined, subscribe: string): SegmentSettings {
  return {
    ...(sharedSecret === undefined ? {} : { sharedSecret }),
    subscription: {
      subscribe,
      partnerAction: 'send',
      enabled: true,
      mapping: { method: 'POST', data: { '@path': '$.' }, ...mapping },
    },
  };
}

/**
 * Sends one event through Segment's Webhook destination (`Destination.onEvent`), as one request.
 *
 * @example
 * await segmentSendEvent(trackEvent(), { url, method: 'PUT' }, 'secret');
 */
export async function segmentSendEvent(
  event: object,
  mapping: ActionsMapping,
  sharedSecret?: string,
  subscribe = 'type = "track" or type = "identify" or type = "page" or type = "screen" or type = "group" or type = "alias"',
): Promise<SendOutcome> {
  try {
    await segmentOnEvent(event, settings(mapping, sharedSecret, subscribe));
    return { ok: true, status: 200 };
  } catch (error) {
    return outcomeOf(error);
  }
}

/**
 * Sends events as one batch through Segment's Webhook destination (`Destination.onBatch`, the
 * mapping's `enable_batching` on): one request whose body is an array and whose `X-Signature`
 * covers the first element only (3.387.0).
 *
 * @example
 * await segmentSendBatch([a, b], { url }, 'secret');
 */
export async function segmentSendBatch(
  events: object[],
  mapping: ActionsMapping,
  sharedSecret?: string,
): Promise<SendOutcome> {
  try {
    const results = (await segmentOnBatch(
      events,
      settings(
        { enable_batching: true, batch_size: 100, ...mapping },
        sharedSecret,
        'type = "track" or type = "identify"',
      ),
    )) as {
      multistatus?: { status: number; errormessage?: string }[];
    }[];
    const statuses = results
      .flatMap((r) => r.multistatus ?? [])
      .map((m) => {
        // A status from the receiver comes with its answer's body; a refusal by Segment's code without a request does not.
        if (m.status >= 300 && !('body' in m) && !('sent' in m))
          throw new Error(`Segment's code refused the batch itself: ${JSON.stringify(m)}`);
        return m.status;
      });
    const bad = statuses.find((s) => s >= 300);
    return bad === undefined ? { ok: true, status: 200 } : { ok: false, status: bad };
  } catch (error) {
    return outcomeOf(error);
  }
}

let counter = 0;

/**
 * A whole Segment event as the service builds it (the Spec's common fields), for `type`.
 *
 * @example
 * const e = segmentEvent('track', { event: 'Order Completed', properties: { total: 42.5 } });
 */
export function segmentEvent(
  type: 'track' | 'identify' | 'page' | 'screen' | 'group' | 'alias',
  fields: Record<string, unknown> = {},
): Record<string, unknown> {
  counter += 1;
  const typeFields: Record<string, Record<string, unknown>> = {
    track: { event: 'Order Completed', properties: { orderId: `o-${counter}`, total: 42.5, currency: 'EUR' } },
    identify: { traits: { email: 'ada@example.com', plan: 'pro' } },
    page: { name: 'Pricing', properties: { url: 'https://app.example.com/pricing', title: 'Pricing' } },
    screen: { name: 'Home', properties: { tab: 'feed' } },
    group: { groupId: 'acme_inc', traits: { name: 'Acme Inc' } },
    alias: { previousId: 'anon_5e1f' },
  };
  return {
    type,
    messageId: `ajs-next-${Date.now()}-${counter}-${Math.random().toString(16).slice(2, 10)}`,
    anonymousId: 'anon_5e1f',
    userId: 'user_1001',
    channel: 'server',
    context: { ip: '203.0.113.7', library: { name: 'analytics-node-next', version: '2.1.0' }, locale: 'en-US' },
    integrations: {},
    originalTimestamp: '2026-11-25T10:00:00.000Z',
    timestamp: '2026-11-25T10:00:00.012Z',
    sentAt: '2026-11-25T10:00:00.020Z',
    receivedAt: '2026-11-25T10:00:00.140Z',
    version: 2,
    ...typeFields[type],
    ...fields,
  };
}
