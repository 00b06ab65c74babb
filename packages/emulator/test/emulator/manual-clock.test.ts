import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { ManualClock, SettingsError, systemClock } from '@hookgate/emulator';
import { startHttpServer } from '../../../../test/helpers/servers.js';

describe('ManualClock', () => {
  it('runs timers in time order (FIFO for equal times), each at its own virtual time', async () => {
    const clock = new ManualClock({ start: '2026-01-01T00:00:00.000Z' });
    const t0 = clock.now();
    const fired: Array<[string, number]> = [];
    clock.setTimer(() => fired.push(['c', clock.now() - t0]), 3000);
    clock.setTimer(() => fired.push(['a', clock.now() - t0]), 1000);
    clock.setTimer(() => fired.push(['b1', clock.now() - t0]), 2000);
    clock.setTimer(() => fired.push(['b2', clock.now() - t0]), 2000);
    const cancelled = clock.setTimer(() => fired.push(['x', clock.now() - t0]), 1500);
    clock.clearTimer(cancelled);
    expect(clock.pendingTimers).toBe(4);
    await clock.advance(2000);
    expect(fired).toEqual([
      ['a', 1000],
      ['b1', 2000],
      ['b2', 2000],
    ]);
    expect(clock.now() - t0).toBe(2000);
    expect(clock.nextTimerAt).toBe(t0 + 3000);
    await clock.advanceTo(t0 + 2500);
    expect(clock.now() - t0).toBe(2500);
    await clock.runAll();
    expect(fired.map((f) => f[0])).toEqual(['a', 'b1', 'b2', 'c']);
    expect(clock.pendingTimers).toBe(0);
    await expect(clock.advance(-1)).rejects.toThrow(RangeError);
  });

  it('runAll() runs timers that timers schedule; runUntil() stops when its condition holds; maxSteps stops a runaway', async () => {
    const clock = new ManualClock();
    let n = 0;
    const tick = () => {
      n++;
      if (n < 10) clock.setTimer(tick, 60_000);
    };
    clock.setTimer(tick, 60_000);
    expect(await clock.runUntil(() => n === 4)).toBe(true);
    expect(n).toBe(4);
    await clock.runAll();
    expect(n).toBe(10);
    const forever = new ManualClock({ maxSteps: 100 });
    const again = () => forever.setTimer(again, 1);
    forever.setTimer(again, 1);
    await expect(forever.runAll()).rejects.toThrow(/more than 100 timers in one run/);
  });

  it('does not move virtual time past a deadline while real I/O is in flight and answering', async () => {
    const server = await startHttpServer((req, res) => {
      req.resume();
      setTimeout(() => res.end('late but fine'), 60); // slower than the grace below, but answered
    });
    const clock = new ManualClock({ ioGraceMs: 30 });
    const outcome: string[] = [];
    // Other short I/O keeps ending (with gaps where nothing is in flight): the machine is busy, so
    // the slow request is not presumed hanging even though it is older than the grace.
    const agent = new http.Agent({ keepAlive: true });
    let pings = 0;
    const pinger = setInterval(() => {
      const end = clock.beginIo();
      setTimeout(end, 2);
      if (++pings === 10) clearInterval(pinger);
    }, 12);
    const done = clock.beginIo();
    const deadline = clock.setTimer(() => outcome.push('timeout'), 5000);
    http
      .request(server.url, { method: 'POST', agent }, (res) => {
        res.resume();
        res.on('end', () => {
          clock.clearTimer(deadline);
          outcome.push('answered');
          done();
        });
      })
      .end('{}');
    await clock.runAll();
    expect(outcome).toEqual(['answered']);
    agent.destroy();
    await server.close();
  });

  it('lets a silent request time out once nothing else happens for ioGraceMs of real time', async () => {
    const clock = new ManualClock({ ioGraceMs: 20 });
    clock.beginIo(); // never ends
    const outcome: string[] = [];
    clock.setTimer(() => outcome.push('timeout'), 5000);
    const started = performance.now();
    await clock.runAll();
    expect(outcome).toEqual(['timeout']);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('validates its options; systemClock is real time', async () => {
    expect(() => new ManualClock({ start: 'not a date' })).toThrow(SettingsError);
    expect(() => new ManualClock({ ioGraceMs: -1 })).toThrow(/ioGraceMs/);
    expect(Math.abs(systemClock.now() - Date.now())).toBeLessThan(50);
    const fired = await new Promise<number>((resolve) => {
      const start = Date.now();
      systemClock.setTimer(() => resolve(Date.now() - start), 20);
    });
    expect(fired).toBeGreaterThanOrEqual(15);
  });
});
