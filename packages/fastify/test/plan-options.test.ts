// hookgateOptions: the plugin's keyed track handlers typed by a tracking plan (compile-time checks below,
// run by tsc; an unused @ts-expect-error fails it) and dispatched by event name over real HTTP.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import Fastify from 'fastify';
import { fixture, type TypedTrackingPlan } from '@hookgate/core';
import { hookgate, hookgateActions, hookgateActionsOptions, hookgateOptions, webhookRoute } from '@hookgate/fastify';
import { compileTrackingPlan } from '@hookgate/plans';
import { segmentEvent, segmentSendEvent } from '../../../test/helpers/segment-actions-sender.js';
import { closeAll, listen, post, SECRET } from './helpers.js';

afterEach(closeAll);

interface Shapes {
  track: {
    'Order Completed': { properties: { order_id: string; total?: number } };
    'Signed Up': { properties: { plan: string } };
  };
  identify: object;
  group: object;
  page: object;
  screen: object;
}

const file = JSON.parse(
  readFileSync(new URL('../../../test/fixtures/tracking-plans/public-api-rules.json', import.meta.url), 'utf8'),
) as { data: TypedTrackingPlan<Shapes> };
const trackingPlan = compileTrackingPlan(file.data);

describe('hookgateOptions', () => {
  it('types keyed track handlers by the plan, and the plugin dispatches them by event name', async () => {
    const seen: string[] = [];
    const app = Fastify();
    await app.register(
      hookgate,
      hookgateOptions({
        secret: SECRET,
        trackingPlan,
        on: {
          track: {
            'Order Completed': (msg, ctx) => {
              expectTypeOf(msg.properties.order_id).toEqualTypeOf<string>();
              expectTypeOf(msg.properties.total).toEqualTypeOf<number | undefined>();
              seen.push(`${msg.properties.order_id}:${ctx.violations.map((v) => v.path).join()}`);
            },
            '*': (msg) => void seen.push(`other ${msg.event}`),
          },
        },
      }),
    );
    const url = await listen(app);
    const send = (event: string, properties: Record<string, unknown>) =>
      post(`${url}/webhooks`, JSON.stringify(fixture('track', { event, properties })));
    expect((await send('Order Completed', { order_id: 'o1', total: 'x' })).status).toBe(200);
    expect((await send('Coupon Applied', {})).status).toBe(200);
    expect(seen).toEqual(['o1:properties.total', 'other Coupon Applied']);
  });

  it('a misspelt event or property is a compile error', () => {
    const options = () =>
      hookgateOptions({
        secret: SECRET,
        trackingPlan,
        on: {
          track: {
            // @ts-expect-error -- not an event of the plan
            'Order Complete': () => {},
            // @ts-expect-error -- not a property of the event
            'Signed Up': (msg) => msg.properties.plna,
          },
        },
      });
    expect(typeof options).toBe('function');
  });
});

describe('webhookRoute() with a tracking plan (pass-through)', () => {
  it('the route reads request.webhookContext.violations and .planned; onViolation runs instead of the route', async () => {
    const calls: string[] = [];
    const app = Fastify();
    app.post('/events', webhookRoute({ secret: SECRET, trackingPlan }), async (request) => {
      const ctx = request.webhookContext!;
      calls.push(`route:${ctx.planned}:${ctx.violations.map((v) => v.path).join()}`);
      return { ok: true };
    });
    app.post(
      '/checked',
      webhookRoute({
        secret: SECRET,
        trackingPlan,
        onViolation: (msg, violations) => void calls.push(`violation:${msg.type}:${violations[0]?.path}`),
      }),
      async (request) => {
        calls.push(`checked-route:${String(request.webhook?.type)}`);
        return { ok: true };
      },
    );
    const url = await listen(app);
    const good = fixture('track', { event: 'Signed Up', properties: { plan: 'pro' } });
    const bad = fixture('track', { event: 'Signed Up', properties: { plan: 'gold' } });
    expect((await post(`${url}/events`, JSON.stringify(good))).status).toBe(200);
    expect((await post(`${url}/events`, JSON.stringify(bad))).status).toBe(200);
    expect((await post(`${url}/checked`, JSON.stringify(good))).status).toBe(200);
    const violating = await post(`${url}/checked`, JSON.stringify(bad));
    expect(violating.status).toBe(200);
    expect(calls).toEqual([
      'route:true:',
      'route:true:properties.plan',
      'checked-route:track',
      'violation:track:properties.plan',
    ]);
  });
});

describe('hookgateActionsOptions', () => {
  it("types an Actions receiver's keyed track handlers by the plan; the plugin checks whole events", async () => {
    const seen: string[] = [];
    const app = Fastify();
    await app.register(
      hookgateActions,
      hookgateActionsOptions({
        path: '/segment',
        secret: SECRET,
        trackingPlan,
        on: {
          track: {
            'Order Completed': (event, ctx) => {
              expectTypeOf(event.properties.order_id).toEqualTypeOf<string>();
              expectTypeOf(event.messageId).toEqualTypeOf<string>();
              seen.push(`${event.properties.order_id}:${ctx.violations.map((v) => v.path).join()}:${ctx.batch?.index}`);
            },
          },
        },
      }),
    );
    const url = await listen(app);
    const order = segmentEvent('track', { properties: { order_id: 'o1', total: '42.5' } });
    expect((await segmentSendEvent(order, { url: `${url}/segment`, method: 'PUT' }, SECRET)).ok).toBe(true);
    expect(seen).toEqual(['o1:properties.total:undefined']);
  });

  it('a misspelt event or property is a compile error', () => {
    const options = () =>
      hookgateActionsOptions({
        secret: SECRET,
        trackingPlan,
        on: {
          track: {
            // @ts-expect-error -- not an event of the plan
            'Order Complete': () => {},
            // @ts-expect-error -- not a property of the event
            'Signed Up': (event) => event.properties.plna,
          },
        },
      });
    expect(typeof options).toBe('function');
  });
});
