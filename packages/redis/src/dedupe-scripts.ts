import { LuaScript } from './lua-script.js';

/**
 * The value of a key whose message was handled.
 *
 * @example
 * (await redis.get('hookgate:dedupe:id:m1')) === DONE_VALUE; // handled
 */
export const DONE_VALUE = 'done';
/**
 * The prefix of the value of a key whose message is being handled: `in-flight:<claim token>`.
 *
 * @example
 * (await redis.get('hookgate:dedupe:id:m1'))?.startsWith(IN_FLIGHT_PREFIX); // being handled
 */
export const IN_FLIGHT_PREFIX = 'in-flight:';

/**
 * The atomic claim, in one round trip: `SET key in-flight:<token> NX PX ttl`; when the key exists,
 * its value says `done` or `in-flight`. KEYS[1] the key; ARGV[1] the in-flight value; ARGV[2] the TTL in ms.
 * A value the store did not write counts as in flight: the message is never run on a guess.
 *
 * @example
 * await CLAIM_SCRIPT.run(client, ['hookgate:dedupe:id:m1'], ['in-flight:ab12:1', 60000]); // 'claimed'
 */
export const CLAIM_SCRIPT = new LuaScript(`
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return 'claimed'
end
if redis.call('GET', KEYS[1]) == '${DONE_VALUE}' then
  return 'done'
end
return 'in-flight'
`);

/**
 * Compare-and-delete: removes the key only while it still holds this claim's in-flight value, so a
 * late release never erases a `done`, nor a claim another instance took after this one expired.
 * KEYS[1] the key; ARGV[1] the in-flight value written by the claim. Returns 1 if deleted, else 0.
 *
 * @example
 * await RELEASE_SCRIPT.run(client, ['hookgate:dedupe:id:m1'], ['in-flight:ab12:1']); // 1
 */
export const RELEASE_SCRIPT = new LuaScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
`);
