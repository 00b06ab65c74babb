// The per-process record of claim values that lets release delete only this store's own claim.
import { expect, it } from 'vitest';
import { ClaimTokens } from '../src/claim-tokens.js';

it('gives back the value of a claim once, then forgets it', () => {
  const tokens = new ClaimTokens();
  tokens.set('id:a', 'in-flight:x:1', 60_000);
  expect(tokens.take('id:a')).toBe('in-flight:x:1');
  expect(tokens.take('id:a')).toBeUndefined();
  expect(tokens.size).toBe(0);
});

it('a new claim of the same key replaces the old value', () => {
  const tokens = new ClaimTokens();
  tokens.set('id:a', 'in-flight:x:1', 60_000);
  tokens.set('id:a', 'in-flight:x:2', 60_000);
  expect(tokens.size).toBe(1);
  expect(tokens.take('id:a')).toBe('in-flight:x:2');
});

it('stays bounded: expired claims go first, then the oldest', () => {
  let now = 0;
  const tokens = new ClaimTokens(10, () => now);
  for (let i = 0; i < 5; i++) tokens.set(`short-${i}`, `v${i}`, 100);
  now = 50;
  for (let i = 0; i < 5; i++) tokens.set(`long-${i}`, `w${i}`, 10_000);
  now = 200; // the short ones expired
  tokens.set('one-more', 'z', 10_000);
  expect(tokens.size).toBe(6);
  expect(tokens.take('short-0')).toBeUndefined();
  expect(tokens.take('long-0')).toBe('w0');

  for (let i = 0; i < 20; i++) tokens.set(`more-${i}`, `m${i}`, 10_000);
  expect(tokens.size).toBeLessThanOrEqual(10);
  expect(tokens.take('more-19')).toBe('m19'); // the newest is kept
  expect(tokens.take('long-1')).toBeUndefined(); // the oldest went
});
