import type * as NodeCrypto from 'node:crypto';

declare const require: ((id: string) => unknown) | undefined;

let cached: typeof NodeCrypto | null | undefined;

// Stryker disable all: the lookup's other routes (no node:crypto in Workers and browsers, `require` in CommonJS)
// never run under Node's ESM, where Stryker runs; the runtime suite (test/runtimes) exercises them.
/**
 * Returns `node:crypto` where the runtime has it (Node, Bun, Deno), else `null` (Workers without
 * nodejs_compat, browsers). Loaded without a static import so that core stays importable everywhere.
 */
export function nodeCrypto(): typeof NodeCrypto | null {
  if (cached !== undefined) return cached;
  cached = null;
  try {
    const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
    const viaBuiltin = proc?.getBuiltinModule?.('node:crypto');
    if (viaBuiltin) cached = viaBuiltin as typeof NodeCrypto;
    else if (typeof require === 'function') cached = require('node:crypto') as typeof NodeCrypto;
  } catch {
    cached = null;
  }
  return cached;
}

/** Like `nodeCrypto()` but throws a clear error where the sync API cannot work. */
export function requireNodeCrypto(api: string): typeof NodeCrypto {
  const c = nodeCrypto();
  if (!c) {
    throw new Error(
      `${api} needs node:crypto, which this runtime does not provide. Use ${api}Async (Web Crypto) instead.`,
    );
  }
  return c;
}
// Stryker restore all
