// What Segment's own Webhooks (Actions) code (@segment/action-destinations 3.387.0 through
// @segment/actions-core) puts on the wire, captured by a raw `net` server, against what the emulator
// makes for the same events: a mapping whose `data` comes out empty (an empty unsigned request; a
// batch keeps `null` in that slot and is unsigned when slot 0 is null), the header block (names, case,
// order, values), number header literals, a mapped Content-Type, and a URL Segment refuses.
import net from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { actionsRequestHeaders } from '../../src/actions/actions-headers.js';
import type { ActionsEndpoint } from '../../src/actions/actions-delivery.js';
import { createEmulator, type DeliveryRecord } from '../../src/index.js';
import type { LoggedDelivery } from '../../src/log/delivery-record.js';
import {
  segmentEvent,
  segmentOnBatch,
  segmentOnEvent,
  SEGMENT_ACTION_DESTINATIONS_VERSION,
} from '../../../../test/helpers/segment-actions-sender.js';

const SECRET = 'wire-s3cret';

/** A request as it arrived: the head's header lines in order and case, and the body. */
interface RawRequest {
  method: string;
  path: string;
  headers: Array<[string, string]>;
  body: string;
}

let server: net.Server;
let url: string;
const got: RawRequest[] = [];

beforeAll(async () => {
  server = net.createServer((socket) => {
    let buf = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      for (;;) {
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) return;
        const [start, ...lines] = buf.subarray(0, end).toString('latin1').split('\r\n');
        const headers = lines.map(
          (l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 1).trim()] as [string, string],
        );
        const length = Number(headers.find(([n]) => n.toLowerCase() === 'content-length')?.[1] ?? 0);
        if (buf.length < end + 4 + length) return;
        const [method, path] = (start as string).split(' ');
        got.push({
          method: method!,
          path: path!,
          headers,
          body: buf.subarray(end + 4, end + 4 + length).toString('utf8'),
        });
        buf = buf.subarray(end + 4 + length);
        socket.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}');
      }
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  got.length = 0;
});

/** The header lines the sender decides: the HTTP client's own Host and Connection left out. */
const decided = (r: RawRequest) => r.headers.filter(([n]) => !['host', 'connection'].includes(n.toLowerCase()));

const subscription = (mapping: Record<string, unknown>) => ({
  subscribe: 'type = "track"',
  partnerAction: 'send' as const,
  enabled: true,
  mapping: { url: `${url}/hook`, method: 'POST', ...mapping },
});

/** Segment's code sending `events` (one: onEvent; several: onBatch) under `mapping`; the requests it made. */
async function segment(events: object[], mapping: Record<string, unknown>): Promise<RawRequest[]> {
  got.length = 0;
  const settings = { sharedSecret: SECRET, subscription: subscription(mapping) };
  if (events.length === 1) await segmentOnEvent(events[0]!, settings);
  else await segmentOnBatch(events, settings);
  return got.splice(0);
}

/** The emulator sending `calls` under `mapping`: its records (and the requests that reached the server). */
async function emulator(
  calls: Array<Record<string, unknown>>,
  mapping: Record<string, unknown>,
): Promise<{ records: DeliveryRecord[]; requests: RawRequest[] }> {
  got.length = 0;
  const e = createEmulator({
    sources: [
      {
        writeKey: 'wk',
        webhooksActions: { enabled: true, sharedSecret: SECRET, subscriptions: [subscription(mapping)] },
      },
    ],
  });
  for (const call of calls) e.track(call);
  await e.drain();
  const records = e.deliveries.filter((r) => r.actions !== undefined && r.attempts.length > 0);
  await e.close();
  return { records, requests: got.splice(0) };
}

/** The header block the emulator's Actions code makes for a record (what the engine is to send, in order). */
function headerList(record: DeliveryRecord): Array<[string, string]> {
  const endpoint = (record as LoggedDelivery).source.endpoints[0] as ActionsEndpoint;
  const bodyLength = Buffer.byteLength(record.body, 'utf8');
  return actionsRequestHeaders(endpoint, bodyLength, record.signature).map(([n, v]) => [n, v]);
}

const props = (order: Record<string, unknown> | undefined) => ({
  event: 'Order Completed',
  userId: 'u1',
  properties: order === undefined ? {} : { order },
});

describe(`Webhooks (Actions) on the wire, against @segment/action-destinations ${SEGMENT_ACTION_DESTINATIONS_VERSION}`, () => {
  it('one event whose data comes out empty: an empty, unsigned request (Content-Length: 0, no Content-Type)', async () => {
    const mapping = { data: { '@path': '$.properties.order' } };
    const [real] = await segment([segmentEvent('track', props(undefined))], mapping);
    expect(real?.body).toBe('');
    expect(decided(real!)).toEqual([
      ['user-agent', 'Segment (Actions)'],
      ['Accept', '*/*'],
      ['Content-Length', '0'],
      ['Accept-Encoding', 'gzip,deflate'],
    ]);
    const { records, requests } = await emulator([props(undefined)], mapping);
    expect(records).toHaveLength(1);
    expect(records[0]!.state).toBe('delivered');
    expect(records[0]!.signature).toBeUndefined();
    expect(requests).toHaveLength(1);
    expect(requests[0]!.method).toBe('POST');
    expect(requests[0]!.body).toBe('');
    expect(requests[0]!.headers.some(([n]) => n.toLowerCase() === 'x-signature')).toBe(false);
    expect(headerList(records[0]!)).toEqual(decided(real!));
    // On the wire: no Content-Type, Content-Length: 0, no X-Signature, as Segment's code sends it.
    expect(decided(requests[0]!)).toEqual(decided(real!));
  });

  it('a batch keeps null where data came out empty, signed over slot 0; unsigned when slot 0 is null', async () => {
    const mapping = { data: { '@path': '$.properties.order' }, enable_batching: true, batch_size: 10 };
    const calls = [props({ id: 'o-1' }), props(undefined), props({ id: 'o-3' })];
    const [real] = await segment(
      calls.map((c) => segmentEvent('track', c)),
      mapping,
    );
    expect(real?.body).toBe('[{"id":"o-1"},null,{"id":"o-3"}]');
    const signed = await emulator(calls, mapping);
    expect(signed.requests.map((r) => r.body)).toEqual([real!.body]);
    expect(headerList(signed.records[0]!)).toEqual(decided(real!));

    const nullFirst = [props(undefined), props({ id: 'o-2' })];
    const [realUnsigned] = await segment(
      nullFirst.map((c) => segmentEvent('track', c)),
      mapping,
    );
    expect(realUnsigned?.body).toBe('[null,{"id":"o-2"}]');
    expect(realUnsigned!.headers.some(([n]) => n === 'x-signature')).toBe(false);
    const unsigned = await emulator(nullFirst, mapping);
    expect(unsigned.requests.map((r) => r.body)).toEqual([realUnsigned!.body]);
    expect(unsigned.records[0]!.signature).toBeUndefined();
    expect(unsigned.requests[0]!.headers.some(([n]) => n.toLowerCase() === 'x-signature')).toBe(false);
    expect(headerList(unsigned.records[0]!)).toEqual(decided(realUnsigned!));
  });

  const headerCases: Array<[string, Record<string, unknown>]> = [
    ['mixed case, unsorted', { 'X-B': 'b', 'x-a': 'a', Zed: 'z', Authorization: 'Bearer t0k3n' }],
    ['number and boolean literals', { 'X-Version': 2, 'X-Ratio': 1.5, 'X-Beta': true }],
    ['a mapped Content-Type and Accept', { 'Content-Type': 'text/plain', accept: 'application/xml' }],
    ['one name in two cases', { 'X-Team': 'growth', 'x-team': 'ads' }],
    ['a mapped Accept-Encoding', { 'Accept-Encoding': 'identity', 'X-Env': 'dev' }],
  ];
  for (const [name, headers] of headerCases) {
    it(`the header block as Segment's code writes it: ${name}`, async () => {
      const mapping = { headers, data: { order: { '@path': '$.properties.order' } } };
      const call = props({ id: 'o-h' });
      const [real] = await segment([segmentEvent('track', call)], mapping);
      const { records, requests } = await emulator([call], mapping);
      expect(requests[0]?.body).toBe(real?.body);
      expect(headerList(records[0]!)).toEqual(decided(real!));
      expect(decided(requests[0]!)).toEqual(decided(real!));
    });
  }

  it('a mapped Content-Type goes out as Segment sends it on an empty request', async () => {
    const mapping = { headers: { 'Content-Type': 'text/plain' }, data: { '@path': '$.properties.order' } };
    const [real] = await segment([segmentEvent('track', props(undefined))], mapping);
    expect(decided(real!)).toContainEqual(['content-type', 'text/plain']);
    const { records } = await emulator([props(undefined)], mapping);
    expect(headerList(records[0]!)).toEqual(decided(real!));
  });

  it('a URL with a space, which Segment refuses at every send, is refused when the emulator is set up', async () => {
    const mapping = { url: `${url}/a b`, data: { '@path': '$.properties' } };
    await expect(segment([segmentEvent('track', props({ id: 'o' }))], mapping)).rejects.toThrow(
      'URL must be a valid URI string but it was not.',
    );
    const settings = {
      sources: [{ writeKey: 'wk', webhooksActions: { sharedSecret: SECRET, subscriptions: [subscription(mapping)] } }],
    };
    expect(() => createEmulator(settings)).toThrow(
      /mapping\.url: contains a space \(U\+0020\) at index \d+.*percent-encoded \(%20\)/s,
    );
    expect(got).toEqual([]);
  });

  for (const [name, path] of [['a character outside ASCII', '/café']]) {
    it(`a URL with ${name} is refused as Segment refuses it: recorded filtered, nothing sent`, async () => {
      const mapping = { url: `${url}${path}`, data: { '@path': '$.properties' } };
      await expect(segment([segmentEvent('track', props({ id: 'o' }))], mapping)).rejects.toThrow(
        'URL must be a valid URI string but it was not.',
      );
      const e = createEmulator({
        sources: [
          { writeKey: 'wk', webhooksActions: { sharedSecret: SECRET, subscriptions: [subscription(mapping)] } },
        ],
      });
      const record = e.track(props({ id: 'o' }));
      await e.drain();
      await e.close();
      expect(record.state).toBe('filtered');
      expect(record.reason).toContain('URL must be a valid URI string but it was not.');
      expect(got).toEqual([]);
    });
  }

  it('a percent-encoded URL is sent, as Segment sends it', async () => {
    const mapping = { url: `${url}/caf%C3%A9?q=a%20b`, data: { '@path': '$.properties' } };
    const [real] = await segment([segmentEvent('track', props({ id: 'o' }))], mapping);
    const { requests } = await emulator([props({ id: 'o' })], mapping);
    expect(requests[0]?.path).toBe(real?.path);
  });

  // WIRE: the header block as the engine puts it on the wire (`actionsRequestHeaders` as given, then
  // the HTTP client's Host and Connection, which `decided` leaves out).
  it('WIRE: the emulator sends the header block in the order and case of Segment’s code', async () => {
    const mapping = { headers: { 'X-B': 'b', Authorization: 'Bearer t0k3n' }, data: { '@path': '$.properties' } };
    const call = props({ id: 'o-w' });
    const [real] = await segment([segmentEvent('track', call)], mapping);
    const { requests } = await emulator([call], mapping);
    expect(decided(requests[0]!)).toEqual(decided(real!));
  });
});
