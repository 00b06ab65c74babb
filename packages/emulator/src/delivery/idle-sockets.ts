// Keep-alive sockets between requests. An answer belongs to the request it follows, so a socket that
// receives anything while it carries no request (an unsolicited answer, the endpoint's close) is done
// for: destroyed while idle, and checked once more before it carries the next request.
import type http from 'node:http';
import type net from 'node:net';

/**
 * How long a freed socket rests before it carries another request: an endpoint that closes the
 * connection after its answer (whatever its `Connection: keep-alive` said) has its close arrive in
 * that time, and the request goes on a new connection instead of into the close.
 *
 * @example
 * REUSE_REST_MS; // 2
 */
export const REUSE_REST_MS = 2;

/**
 * An endpoint that closed an idle connection this soon after answering on it closes its connections
 * after answering: its connections are not kept (each request gets a new one) for `NO_REUSE_MS`, as
 * for an endpoint that sent bytes on an idle connection.
 */
const EARLY_CLOSE_MS = 250;
const NO_REUSE_MS = 60_000;

/** What is known of an endpoint (one agent) across its sockets. */
interface EndpointHabit {
  /** Until when (performance.now()) its connections are not kept. */
  noReuseUntil: number;
}

/** Each free socket: when it was freed (performance.now()) and its endpoint. */
const idle = new WeakMap<net.Socket, { freedAt: number; habit: EndpointHabit }>();
/** Each guarded agent's endpoint habit. */
const habits = new WeakMap<http.Agent, EndpointHabit>();

/**
 * Destroys the socket it is called on: bytes arrived while it carried no request. An endpoint that
 * answers what was not asked may do it again on any socket, after any rest: its connections are not
 * kept for a while (each request gets a new one, so no stray answer can be read as another's).
 */
function destroyOnIdleBytes(this: net.Socket): void {
  const state = idle.get(this);
  if (state) state.habit.noReuseUntil = performance.now() + NO_REUSE_MS;
  this.destroy();
}

/** The endpoint closed this idle socket: right after answering, it is one that closes its connections. */
function noteIdleEnd(this: net.Socket): void {
  const state = idle.get(this);
  if (state && performance.now() - state.freedAt < EARLY_CLOSE_MS)
    state.habit.noReuseUntil = performance.now() + NO_REUSE_MS;
}

/**
 * Watches the keep-alive sockets of `agent` while they are free: a socket that receives bytes then
 * is destroyed (the agent drops it from its free list), never reused; and once the endpoint has sent
 * bytes on an idle connection, or closed one right after answering, its connections are not kept for
 * a while.
 *
 * @example
 * const agent = new http.Agent({ keepAlive: true });
 * guardIdleSockets(agent);
 */
export function guardIdleSockets(agent: http.Agent): void {
  const habit: EndpointHabit = { noReuseUntil: 0 };
  habits.set(agent, habit);
  // The agent puts a socket in its free list on its own 'free' event; this listener runs after it.
  agent.on('free', (socket: net.Socket) => {
    if (socket.destroyed) return;
    const now = performance.now();
    if (now < habit.noReuseUntil) {
      socket.destroy();
      return;
    }
    idle.set(socket, { freedAt: now, habit });
    socket.on('data', destroyOnIdleBytes);
    socket.on('end', noteIdleEnd);
  });
}

/**
 * A request written on a reused socket got no answer but a reset or a close: the endpoint closed the
 * connection as the request went out (its close came after the socket's rest). Its connections are
 * not kept for a while, as when it is seen closing an idle one.
 *
 * @example
 * req.on('error', () => req.reusedSocket && !answered && noteResetOnReuse(agent));
 */
export function noteResetOnReuse(agent: http.Agent): void {
  const habit = habits.get(agent);
  if (habit) habit.noReuseUntil = performance.now() + NO_REUSE_MS;
}

/** The socket carries a request again: it is no longer watched as idle. */
function unwatch(socket: net.Socket): void {
  idle.delete(socket);
  socket.removeListener('data', destroyOnIdleBytes);
  socket.removeListener('end', noteIdleEnd);
}

/**
 * Readies a socket the agent took from its free list for a request, as curl does before it reuses a
 * connection (a zero-wait poll: anything readable means the connection is stale). The request's
 * bytes are held back (`cork`) until the socket has rested `REUSE_REST_MS` since it was freed and sat
 * idle through one more I/O poll: bytes or a close that had arrived unread (an unsolicited answer, a
 * "keep-alive" endpoint's close, a busy event loop's backlog) show up there, and destroy it.
 * `ready(true)`: fit, the request goes out now; `ready(false)`: it was destroyed with the request
 * unsent (the caller sends it again, on another socket).
 *
 * @example
 * req.on('socket', (socket) => req.reusedSocket ? vetReusedSocket(socket, (fit) => fit ? sent() : resend()) : sent());
 */
export function vetReusedSocket(socket: net.Socket, ready: (fit: boolean) => void): void {
  socket.cork();
  const check = () => {
    if (socket.destroyed || !socket.writable) {
      ready(false);
      return;
    }
    unwatch(socket);
    ready(true);
    socket.uncork();
  };
  const rest = REUSE_REST_MS - (performance.now() - (idle.get(socket)?.freedAt ?? -Infinity));
  // A timer then an immediate, or two immediates: either way a whole poll phase lies between.
  if (rest > 0) setTimeout(() => setImmediate(check), rest);
  else setImmediate(() => setImmediate(check));
}
