import { createHmac } from 'node:crypto';
import { parseMessage } from '@hookgate/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, ManualClock, type DeliveryRecord, type Emulator } from '@hookgate/emulator';
import type http from 'node:http';
import { startHttpServer, type RunningServer } from '../../../../test/helpers/servers.js';
import { watchRequestStarts } from '../helpers/request-starts.js';
import { seededRandom } from '../../../../test/helpers/seeded-random.js';

const MESSAGES = 10_000;
const ENDPOINTS = 5;
const SECRET = 'soak-secret';

const SEED = Number(process.env.SOAK_SEED ?? 20261121);
/** Every 100th message is doomed: every endpoint answers 503 to it, for the whole 4 h window. */
const doomed = (seq: number) => seq % 100 === 0;

interface Stats {
  requests: number;
  badSignatures: number;
  invalidBodies: number;
  answered2xx: Map<string, number>;
}

describe('soak: 10,000 messages to 5 endpoints failing at random, on a ManualClock', () => {
  const servers: RunningServer[] = [];
  const stats: Stats = { requests: 0, badSignatures: 0, invalidBodies: 0, answered2xx: new Map() };
  const seen = new Map<string, number>(); // body → requests received
  const seqOf = new Map<string, number>(); // body → its properties.seq (-1: invalid)

  beforeAll(async () => {
    for (let e = 0; e < ENDPOINTS; e++) {
      const random = seededRandom(SEED + e);
      // Each endpoint answers from its own seeded random sequence.
      const answer = (body: Buffer, req: http.IncomingMessage, res: http.ServerResponse) => {
        const text = body.toString('utf8');
        stats.requests++;
        seen.set(text, (seen.get(text) ?? 0) + 1);
        if (req.headers['x-signature'] !== createHmac('sha1', SECRET).update(body).digest('hex')) stats.badSignatures++;
        // Retries resend the same bytes: check each distinct body against the strict schema once.
        let seq = seqOf.get(text);
        if (seq === undefined) {
          try {
            seq = (parseMessage(text, { strictTimestamps: true }) as unknown as { properties: { seq: number } })
              .properties.seq;
          } catch {
            stats.invalidBodies++;
            seq = -1;
          }
          seqOf.set(text, seq);
        }
        const roll = random();
        if (doomed(seq)) return void res.writeHead(503).end();
        if (roll < 0.3) {
          res.writeHead(200).end('ok');
          stats.answered2xx.set(text, (stats.answered2xx.get(text) ?? 0) + 1);
        } else if (roll < 0.7) res.writeHead([500, 502, 503, 504][Math.floor(random() * 4)] as number).end();
        else if (roll < 0.85)
          req.socket.destroy(); // connection reset
        else if (roll < 0.995) {
          // A slow answer (a few real ms), success or failure.
          const ok = random() < 0.5;
          setTimeout(
            () => {
              if (ok) stats.answered2xx.set(text, (stats.answered2xx.get(text) ?? 0) + 1);
              res.writeHead(ok ? 200 : 500).end();
            },
            1 + Math.floor(random() * 5),
          );
        }
        // else: never answer: the emulator's 5 s deadline (virtual) ends it.
      };
      servers.push(
        await startHttpServer((req, res) => {
          const chunks: Buffer[] = [];
          req.on('data', (c: Buffer) => chunks.push(c));
          req.on('end', () => answer(Buffer.concat(chunks), req, res));
        }),
      );
    }
  });
  afterAll(async () => {
    for (const s of servers) await s.close();
  });

  it(
    'ends every message delivered or failed-with-reason; none delivered twice, none missing',
    { timeout: 180_000 },
    async () => {
      const clock = new ManualClock({ start: '2026-01-01T00:00:00.000Z', ioGraceMs: 50 });
      const emulator: Emulator = createEmulator({
        clock,
        retry: { random: seededRandom(SEED) },
        // Few slots per endpoint: hanging requests hold theirs until their (virtual) deadline, so retries
        // queue behind them while another endpoint answers 2xx — the case where queued retries must be cancelled.
        concurrency: 4,
        sources: [
          {
            writeKey: 'wk',
            webhooks: {
              enabled: true,
              endpoints: servers.map((s, i) => ({ url: `${s.url}/e${i}` })),
              sharedSecret: SECRET,
            },
          },
        ],
      });
      const deliveredEvents = new Map<string, number>();
      const failedEvents = new Map<string, number>();
      emulator.on('delivered', (r) => deliveredEvents.set(r.id, (deliveredEvents.get(r.id) ?? 0) + 1));
      // Seed §6: once an endpoint answered 2xx, no retry of that message starts (first attempts keep the
      // fan-out). Request starts are watched as they happen, in order with the 'delivered' events.
      const deliveredSignatures = new Set<string>();
      const startsPerEndpoint = new Map<string, number>();
      const retriesAfterDelivery: string[] = [];
      emulator.on('delivered', (r) => deliveredSignatures.add(r.signature ?? ''));
      const unwatch = watchRequestStarts(({ path, signature }) => {
        const key = `${path} ${signature}`;
        const n = (startsPerEndpoint.get(key) ?? 0) + 1;
        startsPerEndpoint.set(key, n);
        if (n > 1 && deliveredSignatures.has(signature)) retriesAfterDelivery.push(key);
      });
      let cancelledEvents = 0;
      emulator.on('cancelled', () => cancelledEvents++);
      emulator.on('failed', (r) => failedEvents.set(r.id, (failedEvents.get(r.id) ?? 0) + 1));

      const started = performance.now();
      const records: DeliveryRecord[] = [];
      for (let seq = 0; seq < MESSAGES; seq++) {
        records.push(emulator.track({ userId: `user_${seq % 997}`, event: 'Soak', properties: { seq } }));
      }
      await emulator.drain();
      const elapsed = performance.now() - started;
      unwatch();
      expect(retriesAfterDelivery).toEqual([]);

      // Nothing missing: every call has its record, in order, and nothing is left pending.
      expect(emulator.deliveries).toHaveLength(MESSAGES);
      expect(emulator.deliveries.map((d) => d.id)).toEqual(records.map((r) => r.id));
      expect(clock.pendingTimers).toBe(0);

      let delivered = 0;
      let failed = 0;
      let attempts = 0;
      let timeouts = 0;
      let resets = 0;
      let cancelledRetries = 0;
      for (const [seq, r] of records.entries()) {
        attempts += r.attempts.length;
        timeouts += r.attempts.filter((a) => a.error?.code === 'timeout').length;
        resets += r.attempts.filter((a) => a.error?.code === 'connection').length;
        // Every message reached at least one endpoint (first round goes to all five).
        expect(new Set(r.attempts.filter((a) => a.round === 1).map((a) => a.endpoint)).size).toBe(ENDPOINTS);
        expect(seen.get(r.body) ?? 0).toBeGreaterThan(0);
        if (r.state === 'delivered') {
          delivered++;
          expect(deliveredEvents.get(r.id)).toBe(1);
          expect(failedEvents.has(r.id)).toBe(false);
          const winner = r.attempts.find((a) => a.outcome === 'delivered' && a.endpoint === r.deliveredTo);
          expect(winner?.status).toBeGreaterThanOrEqual(200);
          expect(winner?.status).toBeLessThan(300);
          // No retry round after the one that delivered; this round's retries that had not started are cancelled.
          expect(Math.max(...r.attempts.map((a) => a.round))).toBe(winner?.round);
          for (const c of r.cancelled) {
            expect(c.round).toBe(winner?.round);
            expect(r.attempts.some((a) => a.endpoint === c.endpoint && a.round === c.round)).toBe(false);
          }
          cancelledRetries += r.cancelled.length;
          expect(stats.answered2xx.get(r.body) ?? 0).toBeGreaterThan(0);
        } else {
          failed++;
          expect(r.state).toBe('failed');
          expect(r.reason).toMatch(/^gave up: .*503/);
          expect(failedEvents.get(r.id)).toBe(1);
          expect(deliveredEvents.has(r.id)).toBe(false);
          expect(r.attempts.some((a) => a.outcome === 'delivered')).toBe(false);
          const span = Date.parse(r.attempts.at(-1)?.at ?? '') - Date.parse(r.firstAttemptAt ?? '');
          expect(span).toBeLessThanOrEqual(4 * 3_600_000);
        }
        expect(r.state === 'failed').toBe(doomed(seq));
      }
      expect(delivered + failed).toBe(MESSAGES);
      expect(cancelledEvents).toBe(cancelledRetries);
      expect(cancelledRetries).toBeGreaterThan(0);
      expect(failed).toBe(MESSAGES / 100);
      expect(stats.badSignatures).toBe(0);
      expect(stats.invalidBodies).toBe(0);
      expect(stats.requests).toBeLessThanOrEqual(attempts);
      expect(timeouts).toBeGreaterThan(0);
      expect(resets).toBeGreaterThan(0);
      console.log(
        `soak: ${MESSAGES} messages, ${attempts} attempts (${timeouts} timeouts, ${resets} resets, ${cancelledRetries} retries cancelled), ${delivered} delivered, ${failed} failed, ` +
          `virtual ${((clock.now() - Date.parse('2026-01-01T00:00:00.000Z')) / 3_600_000).toFixed(2)} h in ${(elapsed / 1000).toFixed(1)} s real`,
      );
      await emulator.close();
    },
  );
});
