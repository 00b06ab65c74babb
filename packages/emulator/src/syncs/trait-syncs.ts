import { sortedJson } from '@hookgate/core/internal';

/** One user's change from a sync: the trait value to send. */
export interface TraitChange {
  userId: string;
  value: unknown;
}

/**
 * The memory of audience and computed-trait syncs: the first sync of a name sends every
 * user; later syncs send only users whose membership or value changed. Audiences send `true` on
 * entry and `false` on exit; computed traits send the new value, and `null` for a user no longer in
 * the map. State is kept per source and per snake_case name.
 *
 * @example
 * const syncs = new TraitSyncs();
 * syncs.audience('wk', 'high_value_users', ['u1', 'u2']); // u1 true, u2 true
 * syncs.audience('wk', 'high_value_users', ['u2', 'u3']); // u3 true, u1 false
 */
export class TraitSyncs {
  readonly #audiences = new Map<string, Set<string>>();
  readonly #computed = new Map<string, Map<string, string>>();

  /** The changes of an audience sync, and the new membership remembered. */
  audience(writeKey: string, trait: string, members: Iterable<string>): TraitChange[] {
    const key = `${writeKey}\u0000${trait}`;
    const next = new Set<string>();
    for (const m of members) {
      if (typeof m !== 'string' || m.length === 0)
        throw new TypeError(`syncAudience: every member must be a non-empty userId string (got ${JSON.stringify(m)})`);
      next.add(m);
    }
    const previous = this.#audiences.get(key);
    this.#audiences.set(key, next);
    const changes: TraitChange[] = [];
    for (const userId of next) if (!previous?.has(userId)) changes.push({ userId, value: true });
    if (previous) for (const userId of previous) if (!next.has(userId)) changes.push({ userId, value: false });
    return changes;
  }

  /** The changes of a computed-trait sync, and the new values remembered. */
  computed(writeKey: string, trait: string, values: Iterable<[string, unknown]>): TraitChange[] {
    const key = `${writeKey}\u0000${trait}`;
    const next = new Map<string, string>();
    const raw = new Map<string, unknown>();
    for (const [userId, value] of values) {
      if (typeof userId !== 'string' || userId.length === 0)
        throw new TypeError(
          `syncComputedTrait: every key must be a non-empty userId string (got ${JSON.stringify(userId)})`,
        );
      if (value === undefined)
        throw new TypeError(
          `syncComputedTrait: the value of ${JSON.stringify(userId)} is undefined; use null to clear it`,
        );
      next.set(userId, sortedJson(value));
      raw.set(userId, value);
    }
    const previous = this.#computed.get(key);
    this.#computed.set(key, next);
    const changes: TraitChange[] = [];
    for (const [userId, json] of next)
      if (previous?.get(userId) !== json) changes.push({ userId, value: raw.get(userId) });
    if (previous)
      for (const [userId, json] of previous)
        if (!next.has(userId) && json !== 'null') changes.push({ userId, value: null });
    return changes;
  }
}
