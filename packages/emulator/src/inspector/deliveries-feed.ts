import { describeDelivery, summarizeDelivery, type ViewMasks } from './delivery-view.js';
import { listDeliveries, parseListQuery } from './delivery-list.js';
import type { FeedAnswer, InspectorFeed } from './inspector-feed.js';
import type { InspectorEngine } from './inspector-engine.js';
import type { DeliveryRecord } from '../log/delivery-record.js';
import type { DeliveryListPage } from './wire-types.js';

/**
 * The inspector's feed of the emulator's deliveries: the list (filters, cursor), one delivery's
 * detail, and its changes from the emulator's events. Everything masked (see `delivery-view.ts`).
 *
 * @example
 * const feed = deliveriesFeed(emulator, new ViewMasks(emulator), 4 * 3600_000);
 */
export function deliveriesFeed(engine: InspectorEngine, masks: ViewMasks, windowMs: number): InspectorFeed {
  const problem = (status: number, message: string): FeedAnswer => ({ status, body: { error: message } });
  return {
    name: 'deliveries',
    list(params) {
      let query;
      try {
        query = parseListQuery(params);
      } catch (error) {
        return problem(400, `Query: ${(error as Error).message}.`);
      }
      const page: DeliveryListPage = {
        ...listDeliveries(engine.deliveries, masks, query),
        order: 'newest first',
        endpoints: masks.allEndpoints(),
      };
      return { status: 200, body: page };
    },
    detail(id) {
      const record = engine.get(id);
      if (!record)
        return problem(404, `No delivery ${JSON.stringify(id)} in the log (unknown, or evicted by maxRecords).`);
      return { status: 200, body: describeDelivery(record, masks, engine.clock.now(), windowMs) };
    },
    watch(onChange) {
      const onRecord = (record: DeliveryRecord) => onChange(record.id);
      const onAttempt = (_attempt: unknown, record: DeliveryRecord) => onChange(record.id);
      const events = ['received', 'delivered', 'failed', 'filtered'] as const;
      for (const e of events) engine.on(e, onRecord);
      engine.on('attempt', onAttempt);
      return () => {
        for (const e of events) engine.off(e, onRecord);
        engine.off('attempt', onAttempt);
      };
    },
    row(id) {
      const record = engine.get(id);
      return record ? summarizeDelivery(record, masks) : undefined;
    },
  };
}
