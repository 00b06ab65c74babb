import type { ConformanceOptions } from './conformance-types.js';

/** Defaults of the suite's options. @example runConformance({ url, secret, quickMs: CONFORMANCE_DEFAULTS.quickMs * 2 }); */
export const CONFORMANCE_DEFAULTS = Object.freeze({ timeoutMs: 5000, quickMs: 1000, oversizeBytes: 2 * 1024 * 1024 });

/** `runConformance`'s options, checked, with their defaults filled in. */
export interface ConformanceSettings {
  url: URL;
  secret: string;
  headers: Record<string, string>;
  timeoutMs: number;
  quickMs: number;
  oversizeBytes: number;
  delivered: (() => readonly unknown[]) | undefined;
  onCase: ConformanceOptions['onCase'];
}

function wholeNumber(options: ConformanceOptions, name: 'timeoutMs' | 'quickMs' | 'oversizeBytes'): number {
  const value = options[name];
  if (value === undefined) return CONFORMANCE_DEFAULTS[name];
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw new RangeError(
      `runConformance option ${name} must be a whole number above 0 (got ${JSON.stringify(value)}); default ${CONFORMANCE_DEFAULTS[name]}.`,
    );
  }
  return value;
}

/** Checks `runConformance`'s options (a bad one throws, naming it) and fills in the defaults. */
export function conformanceSettings(options: ConformanceOptions): ConformanceSettings {
  if (typeof options !== 'object' || options === null)
    throw new TypeError('runConformance takes an options object: { url, secret }.');
  let url: URL;
  try {
    url = new URL(String(options.url));
  } catch {
    throw new TypeError(
      `runConformance option url must be the receiver's full http(s) URL, e.g. http://127.0.0.1:3000/webhooks (got ${JSON.stringify(options.url)}).`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`runConformance option url must use http or https (got ${JSON.stringify(url.protocol)}).`);
  }
  if (typeof options.secret !== 'string' || options.secret.length === 0) {
    throw new TypeError("runConformance option secret must be the receiver's shared secret, a non-empty string.");
  }
  const headers = options.headers ?? {};
  if (typeof headers !== 'object' || headers === null || Object.values(headers).some((v) => typeof v !== 'string')) {
    throw new TypeError('runConformance option headers must be an object of header name → string value.');
  }
  if (options.delivered !== undefined && typeof options.delivered !== 'function') {
    throw new TypeError('runConformance option delivered must be a function returning the messages the handler saw.');
  }
  if (options.onCase !== undefined && typeof options.onCase !== 'function') {
    throw new TypeError('runConformance option onCase must be a function called with each case result.');
  }
  return {
    url,
    secret: options.secret,
    headers,
    timeoutMs: wholeNumber(options, 'timeoutMs'),
    quickMs: wholeNumber(options, 'quickMs'),
    oversizeBytes: wholeNumber(options, 'oversizeBytes'),
    delivered: options.delivered,
    onCase: options.onCase,
  };
}
