/**
 * The namespace of the emulator's debug lines.
 *
 * @example
 * process.env.DEBUG = DEBUG_NAMESPACE; // 'hookgate:emulator'
 */
export const DEBUG_NAMESPACE = 'hookgate:emulator';

/** Writes one debug line, or is absent when debugging is off (so a call costs nothing then). */
export type DebugLog = (line: string) => void;

/**
 * Whether a `DEBUG` value turns on a namespace, as the `debug` package reads it: a comma- or
 * space-separated list of names with `*` wildcards, `-name` turning one off. `hookgate` alone turns
 * on every hookgate namespace.
 *
 * @example
 * debugEnabled('hookgate*', 'hookgate:emulator'); // true
 * debugEnabled('express:*,-hookgate:*', 'hookgate:emulator'); // false
 */
export function debugEnabled(value: string | undefined, namespace: string = DEBUG_NAMESPACE): boolean {
  if (!value) return false;
  let on = false;
  for (const raw of value.split(/[\s,]+/).filter(Boolean)) {
    const negative = raw.startsWith('-');
    const pattern = negative ? raw.slice(1) : raw;
    const matches =
      new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*?')}$`).test(namespace) ||
      pattern === namespace.split(':')[0];
    if (matches) {
      if (negative) return false;
      on = true;
    }
  }
  return on;
}

/**
 * The debug writer for the emulator: the `debug` option when given (`true`, `false` or a function),
 * else `DEBUG`. Lines go to stderr prefixed with the namespace.
 *
 * @example
 * const log = createDebugLog(undefined, 'hookgate:*');
 * log?.('2026-01-01T00:00:00.000Z dlv_1 track → http://127.0.0.1:3000/ 200 2ms');
 */
export function createDebugLog(
  option: boolean | ((line: string) => void) | undefined,
  env: string | undefined = process.env.DEBUG,
): DebugLog | undefined {
  if (typeof option === 'function') return option;
  if (option === false || (option === undefined && !debugEnabled(env))) return undefined;
  return (line) => {
    process.stderr.write(`${DEBUG_NAMESPACE} ${line}\n`);
  };
}

// The redaction rule lives in one place (redact.ts); debug lines use it as every other view does.
export { redactSignature, redactUrl } from './redact.js';
