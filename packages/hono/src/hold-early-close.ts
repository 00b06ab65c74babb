import type { NodeIncoming } from './node-incoming.js';

type HeldSocket = { destroySoon?: (...args: unknown[]) => unknown; destroyed?: boolean };

/**
 * Holds `@hono/node-server`'s own close of a connection whose body is still arriving, until that body
 * has ended. Once an answer is written before the request's body ended, the Node adapter reads the
 * rest for 0.5 s and then closes the socket (`socket.destroySoon()`, its `autoCleanupIncoming`); with
 * the sender's bytes still arriving, the kernel resets the connection, and the reset throws away the
 * answer before a sender that writes its whole body first has read it. Core's `endUnreadBody`, called
 * with it, reads and drops the rest for up to 2 s (64 MiB) after the answer and closes the connection
 * itself if the body has not ended by then; this makes the adapter's earlier close wait for the end
 * of the body, then lets it happen (a clean close: nothing is left unread). Only this request's
 * socket is touched, and only until its body ends or the socket closes. Without it the senders read a
 * reset instead of the 413: test/adapters/oversize-413.process.test.ts, "hono on node" and "hono on
 * node, pass-through" (four tests fail when this does nothing).
 *
 * @example
 * endUnreadBody(incoming, outgoing);
 * holdEarlyClose(incoming);
 * return new Response(answer.body, { status: 413 });
 */
export function holdEarlyClose(incoming: NodeIncoming): void {
  // HTTP/2: the adapter closes the request's stream, never the session's shared socket.
  if ((incoming as { httpVersionMajor?: number }).httpVersionMajor === 2) return;
  const socket = incoming.socket as HeldSocket | null | undefined;
  if (socket === null || socket === undefined || socket.destroyed === true || typeof socket.destroySoon !== 'function')
    return;
  if (Object.prototype.hasOwnProperty.call(socket, 'destroySoon')) return; // held already
  let asked = false;
  socket.destroySoon = () => {
    asked = true;
  };
  const release = () => {
    incoming.removeListener('end', release);
    incoming.removeListener('close', release);
    delete socket.destroySoon; // the prototype's again
    if (asked && socket.destroyed !== true) socket.destroySoon!();
  };
  incoming.on('end', release);
  incoming.on('close', release);
}
