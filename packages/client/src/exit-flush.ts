/** Starts sending what a client has queued (the requests then keep the process alive until answered). */
export type ExitFlush = () => void;

const waiting = new Set<ExitFlush>();
let installed = false;

function onBeforeExit(): void {
  for (const flush of [...waiting]) flush();
}

/**
 * Registers the flush of a client whose flush timer is armed. The timer is unref'd, so it never keeps
 * the process alive; if the process then runs out of work, Node emits `beforeExit` and the queued
 * messages are sent instead of lost. (`process.exit()` and signals skip `beforeExit`: call `close()`
 * there.) One process listener serves every client; a client is held only while it has messages waiting.
 */
export function watchExit(flush: ExitFlush): void {
  waiting.add(flush);
  if (!installed) {
    installed = true;
    process.on('beforeExit', onBeforeExit);
  }
}

/** Unregisters a client's flush once its queue is empty. */
export function unwatchExit(flush: ExitFlush): void {
  waiting.delete(flush);
}
