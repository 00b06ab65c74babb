// The shared test helper: a real redis-server on a free port, stopped cleanly; a clear failure without one.
import { existsSync } from 'node:fs';
import { expect, it } from 'vitest';
import { findRedisServer, ping, startRedisServer } from '../../../test/helpers/redis-server.js';

it('starts redis-server on a free port of 127.0.0.1 with a temp dir, restarts it on the same port, and stops it', async () => {
  const redis = await startRedisServer();
  try {
    expect(redis.url).toBe(`redis://127.0.0.1:${redis.port}`);
    expect(existsSync(redis.dir)).toBe(true);
    expect(await ping(redis.port)).toBe(true);
    await redis.kill();
    expect(await ping(redis.port)).toBe(false);
    await redis.restart();
    expect(await ping(redis.port)).toBe(true);
  } finally {
    await redis.stop();
  }
  expect(await ping(redis.port)).toBe(false);
  expect(existsSync(redis.dir)).toBe(false);
});

it('fails (never skips) with how to install redis-server when the binary is missing', () => {
  expect(() => findRedisServer('/nonexistent/redis-server')).toThrow(
    /not found at \/nonexistent\/redis-server.*apt-get install -y redis-server/,
  );
});
