// node-crypto.ts for the Node build only (dist/node.js, the `node` condition of `import`): the same
// two functions, with node:crypto imported statically. ESM on Node 20.0–20.15 has neither
// `process.getBuiltinModule` (20.16) nor `require`, so the runtime-neutral lookup finds nothing there;
// this file is swapped in by tsup.config.ts and never reaches the Workers or browser build.
import * as NodeCrypto from 'node:crypto';

/**
 * Returns `node:crypto` (always present in the Node build).
 *
 * @example
 * nodeCrypto()!.createHash('sha256');
 */
export function nodeCrypto(): typeof NodeCrypto | null {
  return NodeCrypto;
}

/**
 * Returns `node:crypto` (always present in the Node build); `api` names the caller, as in node-crypto.ts.
 *
 * @example
 * requireNodeCrypto('sign').createHmac('sha1', secret);
 */
export function requireNodeCrypto(_api: string): typeof NodeCrypto {
  return NodeCrypto;
}
