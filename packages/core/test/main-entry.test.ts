// What `@hookgate/core`'s main entry holds. Every type a signature on it names is exported from it
// (API Extractor's `ae-forgotten-export`, `pnpm api:check`, against packages/core/api/core.api.md);
// this file checks what that cannot: how many values it has, and that the types users asked for are
// importable here, not only from `@hookgate/core/internal`, which promises no stability (type-only
// imports: `tsc -p tsconfig.json` fails without them).
import { describe, expect, expectTypeOf, it } from 'vitest';
import * as core from '../src/index.js';
import * as adapter from '../src/adapter.js';
import {
  MemoryIdempotencyStore,
  parseMessage,
  safeParseMessage,
  type MemoryIdempotencyStoreOptions,
  type ParseMessageOptions,
  type SafeParseResult,
  type WebhookMessage,
} from '../src/index.js';

/**
 * The cap counts values (functions, classes, constants): what a user's editor lists when they type
 * `core.`. Types are not capped: each one a signature names must be importable, however many there
 * are. 40 leaves room for a few user-level additions; adapter plumbing goes to `./adapter` instead.
 */
const MAX_VALUES = 40;

describe("@hookgate/core's main entry", () => {
  it(`has at most ${MAX_VALUES} values`, () => {
    const values = Object.keys(core);
    expect(values.length, values.join(', ')).toBeLessThanOrEqual(MAX_VALUES);
  });

  it("holds none of the adapter entry's plumbing values", () => {
    const plumbing = Object.keys(adapter).filter((name) => name in core);
    expect(plumbing).toEqual([]);
  });

  it('exports the option and result types of parseMessage, safeParseMessage and MemoryIdempotencyStore', () => {
    const options: ParseMessageOptions = { strictTimestamps: true };
    const result: SafeParseResult<WebhookMessage> = safeParseMessage('{}', options);
    expect(result.success).toBe(false);
    expectTypeOf(parseMessage).parameter(1).toEqualTypeOf<ParseMessageOptions | undefined>();
    const storeOptions: MemoryIdempotencyStoreOptions = { maxEntries: 10 };
    expect(new MemoryIdempotencyStore(storeOptions)).toBeInstanceOf(MemoryIdempotencyStore);
    expectTypeOf<ConstructorParameters<typeof MemoryIdempotencyStore>[0]>().toEqualTypeOf<
      MemoryIdempotencyStoreOptions | undefined
    >();
  });
});
