/**
 * Thrown by `createEmulator`, `addSource` and `updateSource` when a setting or an option is wrong.
 * `.setting` names it as a path into the options, e.g. `sources[0].webhooks.endpoints[2].url`.
 *
 * @example
 * try { createEmulator({ sources: [{ writeKey: 'k', webhooks: { enabled: true, endpoints: [{ url: 'example.com' }] } }] }); }
 * catch (e) { if (e instanceof SettingsError) console.log(e.setting); } // "sources[0].webhooks.endpoints[0].url"
 */
export class SettingsError extends TypeError {
  override readonly name = 'SettingsError';
  constructor(
    /** The offending setting, as a path into the options object. */
    readonly setting: string,
    /** What is wrong and how to fix it. */
    readonly problem: string,
  ) {
    super(`Invalid setting ${setting}: ${problem}`);
  }
}

/**
 * Thrown when a call names a write key that no configured source has.
 *
 * @example
 * try { emulator.track({ userId: 'u1', event: 'E' }, { writeKey: 'nope' }); }
 * catch (e) { if (e instanceof UnknownWriteKeyError) console.log(e.writeKey); }
 */
export class UnknownWriteKeyError extends Error {
  override readonly name = 'UnknownWriteKeyError';
  constructor(
    /** The write key that matched no source (shown shortened in the message). */
    readonly writeKey: string,
    known: readonly string[],
  ) {
    super(
      `Unknown write key ${JSON.stringify(shorten(writeKey))}: no source has it. ` +
        (known.length === 0
          ? 'No source is configured: pass sources: [{ writeKey, webhooks }] to createEmulator or call addSource().'
          : `Configured sources: ${known.map((k) => JSON.stringify(shorten(k))).join(', ')}.`),
    );
  }
}

/**
 * Thrown by a call made after `close()`: the emulator accepts nothing more.
 *
 * @example
 * await emulator.close();
 * emulator.track({ userId: 'u1', event: 'Late' }); // throws EmulatorClosedError
 */
export class EmulatorClosedError extends Error {
  override readonly name = 'EmulatorClosedError';
  constructor(
    /** The method that was called. */
    readonly method: string,
  ) {
    super(`emulator.${method}() after close(): the emulator accepts nothing more; create a new one`);
  }
}

/**
 * Thrown by `replay(id)` for an id that no delivery record has, or a record with nothing to send.
 *
 * @example
 * try { emulator.replay('dlv_999'); } catch (e) { if (e instanceof ReplayError) console.log(e.id); }
 */
export class ReplayError extends Error {
  override readonly name = 'ReplayError';
  constructor(
    /** The id passed to `replay`. */
    readonly id: string,
    problem: string,
  ) {
    super(`Cannot replay ${JSON.stringify(id)}: ${problem}`);
  }
}

/** Keeps a write key recognisable in an error without printing all of it. */
function shorten(key: string): string {
  return key.length <= 8 ? key : `${key.slice(0, 6)}…`;
}

/**
 * Thrown by `track()`, `ingest()`, `replay()` & co. when the delivery log's byte budget
 * (`maxLogBytes`) is filled by deliveries still pending: finished records were evicted already, and a
 * pending one is never dropped, so the new message is refused (nothing of it was recorded). The
 * intake answers such a request 503 (`log_full`).
 *
 * @example
 * try { emulator.track(call); } catch (e) { if (e instanceof LogFullError) await emulator.drain(); }
 */
export class LogFullError extends Error {
  override readonly name = 'LogFullError';
  constructor(
    /** Bytes of body held by the pending records. */
    readonly pendingBytes: number,
    /** The budget, `maxLogBytes`. */
    readonly maxLogBytes: number,
  ) {
    super(
      `The delivery log is full: deliveries still pending hold ${pendingBytes} bytes of bodies, and the new message does not fit in maxLogBytes (${maxLogBytes}). ` +
        'Nothing of it was accepted. Let pending deliveries finish (drain(), or fix the endpoint that keeps failing), or raise maxLogBytes.',
    );
  }
}
