// The table's seed-shape check accepts every fixture of core and catches each departure from §2.2.
import { describe, expect, it } from 'vitest';
import { allFixtures, fixture, type WebhookMessage } from '@hookgate/core';
import { seedShapeProblems } from './seed-shapes.js';

describe('seedShapeProblems', () => {
  it("accepts core's fixture of every type", () => {
    for (const m of allFixtures()) expect(seedShapeProblems(m), m.type).toEqual([]);
  });

  it('catches each departure from the seed', () => {
    const bad = (m: unknown) => seedShapeProblems(m as WebhookMessage);
    expect(bad({ ...fixture('alias'), userId: 'u1' })).toContain('alias has no userId');
    expect(bad({ ...fixture('delete'), version: 1 })).toEqual([
      'delete carries type, userId, timestamp only (got timestamp,type,userId,version)',
    ]);
    expect(bad({ ...fixture('track'), timestamp: '2026-11-21T12:00:00Z' })).toContain(
      'timestamp must be ISO 8601 UTC with milliseconds',
    );
    expect(bad({ ...fixture('page'), version: 2 })).toContain('version must be 1');
    expect(bad({ ...fixture('track'), event: undefined })).toContain('event must be a string');
    expect(bad({ ...fixture('group'), groupId: 7 })).toContain('groupId must be a string');
    expect(bad({ ...fixture('screen'), name: null })).toContain('name must be a string');
    expect(bad({ ...fixture('identify'), traits: [] })).toContain('traits must be an object');
  });
});
