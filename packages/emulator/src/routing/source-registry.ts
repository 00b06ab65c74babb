import { BodyPacker } from '../log/body-packer.js';
import { redactUrl } from '../debug-log.js';
import { SettingsError, UnknownWriteKeyError } from '../errors.js';
import { resolveSource, type ResolvedSource, type SourceSettings } from './source-settings.js';

/**
 * The changeable parts of a source, for `updateSource`.
 *
 * @example
 * const patch: SourcePatch = { webhooks: { enabled: false, endpoints: [] } };
 */
export type SourcePatch = Partial<Omit<SourceSettings, 'writeKey'>>;

/**
 * A read-only view of one source, free of secrets: no shared secret, no header values, and endpoint
 * URLs with their password and query values masked.
 *
 * @example
 * emulator.sources.map((s) => `${s.writeKey}: ${s.webhooks?.endpoints.length ?? 0} endpoints`);
 */
export interface SourceView {
  readonly writeKey: string;
  readonly name?: string;
  readonly webhooks?: {
    readonly enabled: boolean;
    /** `url` is masked: `https://user:***@host/path?…` (no password, no query token). */
    readonly endpoints: ReadonlyArray<{ readonly url: string; readonly headerNames: readonly string[] }>;
    /** Whether a shared secret is set (requests carry `X-Signature`). */
    readonly signed: boolean;
  };
  readonly blockedEvents: readonly string[];
  /** The Webhooks (Actions) destination, when set: each subscription's condition, method and URL (masked; a directive shown as JSON). */
  readonly webhooksActions?: {
    readonly enabled: boolean;
    readonly signed: boolean;
    readonly batchWindowMs: number;
    readonly subscriptions: ReadonlyArray<{
      readonly number: number;
      readonly name?: string;
      readonly subscribe: string;
      readonly enabled: boolean;
      readonly method: string;
      readonly url: string;
      readonly batchSize?: number;
    }>;
  };
}

/** One source as the emulator keeps it: its settings, usage and the users seen in it. */
export interface SourceState {
  raw: SourceSettings;
  resolved: ResolvedSource;
  usage: number;
  seenUsers: Set<string>;
  /** Packs this source's bodies in groups, against its dictionaries (its first packed bodies); kept across setting changes. */
  packer: BodyPacker;
}

/**
 * The configured sources by write key: added, changed, looked up (an unknown key throws
 * `UnknownWriteKeyError` naming the known ones), and shown without secrets.
 *
 * @example
 * const sources = new SourceRegistry();
 * sources.add({ writeKey: 'wk' }, 'source');
 * sources.get('wk').usage; // 0
 */
export class SourceRegistry {
  readonly #sources = new Map<string, SourceState>();

  /** The views of every source, in the order added. */
  views(): SourceView[] {
    return [...this.#sources.values()].map((s) => viewSource(s.resolved));
  }

  /** Every source's state. */
  all(): IterableIterator<SourceState> {
    return this.#sources.values();
  }

  has(writeKey: string): boolean {
    return this.#sources.has(writeKey);
  }

  /** The source with this write key; throws `UnknownWriteKeyError` when there is none. */
  get(writeKey: string): SourceState {
    const s = this.#sources.get(writeKey);
    if (!s) throw new UnknownWriteKeyError(String(writeKey), [...this.#sources.keys()]);
    return s;
  }

  /** The write key given, or the first source's. */
  writeKeyOrFirst(given: string | undefined): string {
    if (given !== undefined) return given;
    const first = this.#sources.keys().next();
    if (first.done) throw new UnknownWriteKeyError('', []);
    return first.value;
  }

  /** Adds a source (`path` names it in errors, e.g. `sources[2]`). */
  add(raw: SourceSettings, path: string): SourceState {
    const resolved = resolveSource(raw, path);
    if (this.#sources.has(resolved.writeKey))
      throw new SettingsError(
        `${path}.writeKey`,
        'another source has this write key; write keys must be unique (use updateSource to change a source)',
      );
    const state: SourceState = { raw: { ...raw }, resolved, usage: 0, seenUsers: new Set(), packer: new BodyPacker() };
    this.#sources.set(resolved.writeKey, state);
    return state;
  }

  /** Changes a source's name, webhooks or schema. */
  update(writeKey: string, patch: SourcePatch): SourceState {
    const state = this.get(writeKey);
    if (typeof patch !== 'object' || patch === null)
      throw new SettingsError('patch', 'must be an object { name?, webhooks?, schema? }');
    if ('writeKey' in patch) throw new SettingsError('patch.writeKey', 'cannot change; add a new source instead');
    const raw = { ...state.raw, ...patch, writeKey };
    state.resolved = resolveSource(raw, 'patch');
    state.raw = raw;
    return state;
  }
}

/**
 * A source's read-only view: no shared secret, no header values, endpoint URLs masked by `redactUrl`.
 *
 * @example
 * viewSource(resolveSource({ writeKey: 'wk' }, 'source')).writeKey; // 'wk'
 */
export function viewSource(s: ResolvedSource): SourceView {
  return Object.freeze({
    writeKey: s.writeKey,
    ...(s.name !== undefined ? { name: s.name } : {}),
    ...(s.connected
      ? {
          webhooks: Object.freeze({
            enabled: s.enabled,
            endpoints: Object.freeze(
              s.endpoints.map((e) =>
                Object.freeze({ url: redactUrl(e.url), headerNames: Object.freeze(Object.keys(e.headers)) }),
              ),
            ),
            signed: s.sharedSecret !== undefined,
          }),
        }
      : {}),
    blockedEvents: Object.freeze([...s.blockedEvents]),
    ...(s.actions
      ? {
          webhooksActions: Object.freeze({
            enabled: s.actions.enabled,
            signed: s.actions.sharedSecret !== undefined,
            batchWindowMs: s.actions.batchWindowMs,
            subscriptions: Object.freeze(
              s.actions.subscriptions.map((sub) => {
                const { url, method } = sub.mapping;
                return Object.freeze({
                  number: sub.number,
                  ...(sub.name !== undefined ? { name: sub.name } : {}),
                  subscribe: sub.subscribe,
                  enabled: sub.enabled,
                  method: typeof method === 'string' ? method : JSON.stringify(method),
                  url: typeof url === 'string' ? redactUrl(url) : JSON.stringify(url),
                  ...(sub.batching ? { batchSize: sub.batchSize } : {}),
                });
              }),
            ),
          }),
        }
      : {}),
  });
}
