import type { DeliveryRecord } from '../log/delivery-record.js';
import type { Pipeline } from '../pipeline.js';
import { destinationBlock } from '../routing/route-call.js';
import type { SourceState } from '../routing/source-registry.js';
import { deleteMessage, traitIdentify } from '../routing/transform.js';
import { snakeCase } from './snake-case.js';
import { TraitSyncs, type TraitChange } from './trait-syncs.js';

/**
 * Options of `deleteUser`.
 *
 * @example
 * emulator.deleteUser('u1', { sources: ['wk_web', 'wk_app'] });
 */
export interface DeleteUserOptions {
  /** Write keys of the sources to notify. Default: every source in which the user was seen. */
  sources?: string[];
}

/**
 * The messages the emulator makes itself: delete notifications, audience and
 * computed-trait syncs, each recorded and delivered through the pipeline.
 *
 * @example
 * const syncs = new SyncRecords(pipeline);
 * syncs.audience('High Value Users', ['u1'], undefined); // identify u1 { high_value_users: true }
 */
export class SyncRecords {
  readonly #pipeline: Pipeline;
  readonly #syncs = new TraitSyncs();

  constructor(pipeline: Pipeline) {
    this.#pipeline = pipeline;
  }

  /** Delete notifications to every affected source. */
  deleteUser(userId: string, options: DeleteUserOptions = {}): DeliveryRecord[] {
    const p = this.#pipeline;
    p.assertOpen('deleteUser');
    if (typeof userId !== 'string' || userId.length === 0)
      throw new TypeError('deleteUser(userId): userId must be a non-empty string');
    let affected: SourceState[];
    if (options.sources !== undefined) {
      if (!Array.isArray(options.sources))
        throw new TypeError('deleteUser(userId, { sources }): sources must be a list of write keys');
      affected = options.sources.map((k) => p.sources.get(k));
    } else {
      affected = [...p.sources.all()].filter((s) => s.seenUsers.has(userId));
    }
    const now = p.options.clock.now();
    return affected.map((source) => {
      source.seenUsers.delete(userId);
      return p.record({
        type: 'delete',
        source,
        origin: 'delete',
        message: deleteMessage(userId, now),
        receivedMs: now,
        filteredReason: destinationBlock(source.resolved),
      });
    });
  }

  /** An audience sync: `true` for new members, `false` for users who left. */
  audience(name: string, memberUserIds: Iterable<string>, writeKey: string | undefined): DeliveryRecord[] {
    const trait = this.#traitName(name, 'syncAudience');
    if (
      memberUserIds === null ||
      typeof memberUserIds?.[Symbol.iterator] !== 'function' ||
      typeof memberUserIds === 'string'
    )
      throw new TypeError('syncAudience(name, memberUserIds): memberUserIds must be a list (or Set) of userIds');
    const source = this.#source(writeKey);
    return this.#traitRecords(
      source,
      trait,
      this.#syncs.audience(source.resolved.writeKey, trait, memberUserIds),
      'audience',
    );
  }

  /** A computed-trait sync: the new value of every user whose value changed. */
  computedTrait(
    name: string,
    valuesByUserId: Record<string, unknown> | Map<string, unknown>,
    writeKey: string | undefined,
  ): DeliveryRecord[] {
    const trait = this.#traitName(name, 'syncComputedTrait');
    if (typeof valuesByUserId !== 'object' || valuesByUserId === null || Array.isArray(valuesByUserId))
      throw new TypeError(
        'syncComputedTrait(name, valuesByUserId): valuesByUserId must be an object or Map of userId → value',
      );
    const entries = valuesByUserId instanceof Map ? valuesByUserId.entries() : Object.entries(valuesByUserId);
    const source = this.#source(writeKey);
    return this.#traitRecords(
      source,
      trait,
      this.#syncs.computed(source.resolved.writeKey, trait, entries),
      'computed-trait',
    );
  }

  #source(writeKey: string | undefined): SourceState {
    const sources = this.#pipeline.sources;
    return sources.get(sources.writeKeyOrFirst(writeKey));
  }

  #traitName(name: string, method: string): string {
    this.#pipeline.assertOpen(method);
    const trait = typeof name === 'string' ? snakeCase(name) : '';
    if (!trait)
      throw new TypeError(`${method}(name, ...): name must contain letters or digits (got ${JSON.stringify(name)})`);
    return trait;
  }

  #traitRecords(
    source: SourceState,
    trait: string,
    changes: TraitChange[],
    origin: 'audience' | 'computed-trait',
  ): DeliveryRecord[] {
    const p = this.#pipeline;
    const now = p.options.clock.now();
    const blocked = destinationBlock(source.resolved);
    return changes.map(({ userId, value }) =>
      p.record({
        type: 'identify',
        source,
        origin,
        message: traitIdentify(userId, { [trait]: value }, now),
        receivedMs: now,
        filteredReason: blocked,
      }),
    );
  }
}
