// Keep-alive HTTP/1.1 connections on raw node:net / node:tls sockets, one pool per emulator.
// node:http's `http.request` allocates ≈ 14 KB of JS objects per request; with 100,000 records alive
// V8 promoted those graphs to old space (most of a 400 MB peak RSS, bench/README.md). Here a request
// is one buffer written on a kept-alive socket, and the answer is parsed by the connection's own
// parser: the listeners are shared functions (`this` is the socket), set once per connection.
import net from 'node:net';
import tls from 'node:tls';
import type { TlsOptions } from '../options.js';
import { Http1RequestHead } from './http1-request-head.js';
import { Http1ResponseParser, ParseResult } from './http1-response-parser.js';

/**
 * A free connection idle this long is closed (and never reused): below the 5 s `keepAliveTimeout` of
 * Node servers, so that a server's idle close does not race a new request.
 *
 * @example
 * IDLE_CLOSE_MS < 5000; // true
 */
export const IDLE_CLOSE_MS = 3000;
/** How often free connections are checked for idleness. */
const SWEEP_MS = 1000;

/**
 * What a connection reports about the exchange it carries (one request, one answer).
 *
 * @example
 * const exchange: Http1Exchange = { answered: (p) => console.log(p.status), malformed: console.error, broken: console.error };
 */
export interface Http1Exchange {
  /** The whole answer was read; `parser` holds it during this call only. */
  answered(parser: Http1ResponseParser): void;
  /** The answer broke the protocol (the connection is closed). */
  malformed(reason: string): void;
  /** The connection failed or closed before the answer's end (`parser.status` is set when its head came). */
  broken(error: (Error & { code?: string }) | undefined, parser: Http1ResponseParser): void;
}

const CONNECTION = Symbol('hookgate.http1.connection');
type Tagged = (net.Socket | tls.TLSSocket) & { [CONNECTION]?: Http1Connection };

function connectionOf(socket: net.Socket): Http1Connection {
  return (socket as Tagged)[CONNECTION] as Http1Connection;
}

function onConnect(this: net.Socket): void {
  connectionOf(this).connected();
}

function onData(this: net.Socket, chunk: Buffer): void {
  connectionOf(this).received(chunk, chunk.length);
}

/**
 * Plain sockets read into one buffer shared by every connection (net's `onread`): no buffer, stream
 * state or next-tick per read. Safe because an answer is parsed synchronously, and what the parser
 * keeps (the body's first 1 KB, a partial head) it copies.
 */
const READ_BUFFER = Buffer.allocUnsafeSlow(64 * 1024);

function onRead(this: net.Socket, length: number): boolean {
  connectionOf(this).received(READ_BUFFER, length);
  return true; // keep reading
}

function onEnd(this: net.Socket): void {
  connectionOf(this).ended(undefined);
}

function onError(this: net.Socket, error: Error): void {
  connectionOf(this).ended(error);
}

function onClose(this: net.Socket): void {
  connectionOf(this).ended(undefined);
}

function onSession(this: tls.TLSSocket, session: Buffer): void {
  connectionOf(this).origin.session = session;
}

/**
 * One origin (`scheme://host:port`): how to connect, and its free connections (a LIFO stack, as
 * node:http's agent with `scheduling: 'lifo'`: the warmest socket first, the others age out).
 *
 * @example
 * const origin = pool.target({ parsed: new URL('https://[::1]:8443/hook'), headers: {} }).origin;
 * origin.host; // '::1'
 */
export class Http1Origin {
  readonly free: Http1Connection[] = [];
  readonly host: string;
  readonly port: number;
  readonly secure: boolean;
  /** The TLS session of the last handshake, offered to the next one (as node:https's agent does). */
  session: Buffer | undefined = undefined;

  constructor(
    readonly pool: Http1ConnectionPool,
    url: URL,
  ) {
    this.secure = url.protocol === 'https:';
    this.host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    this.port = url.port ? Number(url.port) : this.secure ? 443 : 80;
  }
}

/**
 * One socket and its answer parser; carries one exchange at a time.
 *
 * @example
 * const connection = pool.connection(origin);
 * connection.send(requestBytes, exchange);
 */

const secureContexts = new WeakMap<TlsOptions, tls.SecureContext>();

/**
 * The TLS context for the emulator's `tls` option, made once: its `ca` trusted on top of Node's root
 * certificates (as the option says), not instead of them.
 */
function secureContextOf(options: TlsOptions): tls.SecureContext {
  let context = secureContexts.get(options);
  if (context === undefined) {
    context = tls.createSecureContext({ ca: trustedCertificates(options.ca) });
    secureContexts.set(options, context);
  }
  return context;
}

/**
 * The certificates an HTTPS endpoint may chain to: Node's root certificates and the `ca` given.
 *
 * @example
 * trustedCertificates(testCaPem).length === tls.rootCertificates.length + 1; // true
 */
export function trustedCertificates(ca: TlsOptions['ca']): Array<string | Buffer> {
  const extra = ca === undefined ? [] : Array.isArray(ca) ? ca : [ca];
  return [...tls.rootCertificates, ...extra];
}

export class Http1Connection {
  readonly parser = new Http1ResponseParser();
  readonly socket: net.Socket;
  exchange: Http1Exchange | undefined = undefined;
  /** The request waiting for the socket to connect. */
  #request: Buffer | undefined = undefined;
  #connected = false;
  #closed = false;
  /** When it became free (`performance.now()`). */
  freeSince = 0;
  /** How long it may stay free (shortened by the server's `Keep-Alive: timeout=N`). */
  idleLimitMs = IDLE_CLOSE_MS;
  isFree = false;

  constructor(
    readonly origin: Http1Origin,
    tlsOptions: TlsOptions,
  ) {
    let socket: net.Socket;
    if (origin.secure) {
      const secure = tls.connect({
        host: origin.host,
        port: origin.port,
        ...(net.isIP(origin.host) === 0 ? { servername: origin.host } : {}),
        ...(tlsOptions.ca ? { secureContext: secureContextOf(tlsOptions) } : {}),
        ...(origin.session ? { session: origin.session } : {}),
        rejectUnauthorized: true,
      });
      secure.on('secureConnect', onConnect);
      secure.on('session', onSession);
      socket = secure;
    } else {
      socket = net.connect({ host: origin.host, port: origin.port, onread: { buffer: READ_BUFFER, callback: onRead } });
      socket.on('connect', onConnect);
    }
    (socket as Tagged)[CONNECTION] = this;
    socket.setNoDelay(true);
    if (origin.secure) socket.on('data', onData);
    socket.on('end', onEnd);
    socket.on('error', onError);
    socket.on('close', onClose);
    this.socket = socket;
  }

  /** Starts an exchange: writes the request now, or once connected. */
  send(request: Buffer, exchange: Http1Exchange): void {
    this.parser.reset();
    this.exchange = exchange;
    if (this.#connected) this.socket.write(request);
    else this.#request = request;
  }

  /** Ends the exchange without its answer (an abort): the socket is destroyed. */
  abandon(): void {
    this.exchange = undefined;
    this.#request = undefined;
    this.close();
  }

  /** Destroys the socket and forgets the connection. */
  close(): void {
    if (!this.#closed) {
      this.#closed = true;
      this.origin.pool.forget(this);
    }
    this.socket.destroy();
  }

  connected(): void {
    this.#connected = true;
    const request = this.#request;
    if (request) {
      this.#request = undefined;
      this.socket.write(request);
    }
  }

  /** Bytes from the socket: `chunk[0, length)` (`chunk` may be the shared read buffer). */
  received(chunk: Buffer, length: number): void {
    const exchange = this.exchange;
    if (!exchange) {
      // Bytes with no request in flight (after an answer's end, on a free socket): not HTTP we can trust.
      this.close();
      return;
    }
    const result = this.parser.execute(chunk, length);
    if (result === ParseResult.NeedMore) return;
    this.exchange = undefined;
    if (result === ParseResult.Malformed) {
      this.close();
      exchange.malformed(this.parser.error ?? 'malformed answer');
      this.parser.reset();
      return;
    }
    this.#answered(exchange, this.parser.keepAlive && !this.parser.trailingBytes);
  }

  #answered(exchange: Http1Exchange, reusable: boolean): void {
    const hint = this.parser.keepAliveTimeoutMs;
    if (hint !== undefined) this.idleLimitMs = Math.min(IDLE_CLOSE_MS, hint - 1000);
    // Freed before the exchange reports, so that a request sent from its callback reuses this socket.
    if (reusable && !this.#closed && this.idleLimitMs > 0) this.origin.pool.release(this);
    else this.close();
    exchange.answered(this.parser);
    if (this.exchange === undefined) this.parser.reset(); // let go of the answer's buffers now
  }

  /** The socket ended, failed or closed: the exchange in flight (if any) ends, the connection is dropped. */
  ended(error: Error | undefined): void {
    const exchange = this.exchange;
    this.exchange = undefined;
    this.#request = undefined;
    if (exchange && !error && this.parser.status !== undefined && this.parser.endOfInput()) {
      this.#answered(exchange, false); // a close-delimited answer
      return;
    }
    this.close();
    if (exchange) {
      exchange.broken(error, this.parser);
      this.parser.reset();
    }
  }
}

/**
 * One request target: an endpoint's origin and its precomputed request head, made once per endpoint.
 *
 * @example
 * const target = pool.target(endpoint);
 * target.head.render(body, signature);
 */
export class Http1Target {
  constructor(
    readonly url: URL,
    readonly origin: Http1Origin,
    readonly head: Http1RequestHead,
  ) {}
}

/**
 * Keep-alive connections per origin on node:net / node:tls sockets: unlimited sockets per origin (the
 * engine bounds requests in flight per endpoint), reused LIFO only after a complete keep-alive
 * answer, closed after `IDLE_CLOSE_MS` idle; HTTPS verifies certificates (`ca` from the emulator's
 * `tls` option) and sends SNI for host names.
 *
 * @example
 * const pool = new Http1ConnectionPool({ ca: pem }, 'Segment.io/1.0');
 * const target = pool.target({ parsed: new URL('https://127.0.0.1:8443/hook'), headers: {} });
 * pool.destroy(); // closes every socket
 */
export class Http1ConnectionPool {
  readonly #origins = new Map<string, Http1Origin>();
  readonly #targets = new WeakMap<object, Http1Target>();
  readonly #connections = new Set<Http1Connection>();
  #sweeper: NodeJS.Timeout | undefined = undefined;

  constructor(
    private readonly tls: TlsOptions,
    private readonly userAgent: string,
  ) {}

  /** The target of an endpoint (its URL and static headers; a Webhooks (Actions) endpoint also its method and User-Agent), computed on first use. */
  target(endpoint: {
    readonly parsed: URL;
    readonly headers: Readonly<Record<string, string>>;
    readonly method?: string;
    readonly userAgent?: string;
  }): Http1Target {
    let target = this.#targets.get(endpoint);
    if (!target) {
      const url = endpoint.parsed;
      const key = url.origin;
      let origin = this.#origins.get(key);
      if (!origin) {
        origin = new Http1Origin(this, url);
        this.#origins.set(key, origin);
      }
      target = new Http1Target(
        url,
        origin,
        new Http1RequestHead(url, endpoint.userAgent ?? this.userAgent, endpoint.headers, endpoint.method),
      );
      this.#targets.set(endpoint, target);
    }
    return target;
  }

  /** A connection to the origin: the most recently freed one still fresh, else a new one. */
  connection(origin: Http1Origin): Http1Connection {
    const free = origin.free;
    const now = performance.now();
    while (free.length > 0) {
      const connection = free.pop() as Http1Connection;
      connection.isFree = false;
      if (now - connection.freeSince < connection.idleLimitMs && !connection.socket.destroyed) {
        connection.socket.ref(); // carrying a request again: it keeps the process alive
        return connection;
      }
      connection.close();
    }
    const connection = new Http1Connection(origin, this.tls);
    this.#connections.add(connection);
    if (this.#sweeper === undefined) {
      this.#sweeper = setInterval(sweep, SWEEP_MS, this);
      this.#sweeper.unref();
    }
    return connection;
  }

  /** Puts a connection back on its origin's free stack. */
  release(connection: Http1Connection): void {
    connection.isFree = true;
    connection.freeSince = performance.now();
    // A free socket does not keep the process alive (as node:http's agent does): a script that drained
    // its deliveries exits without close(), instead of waiting for the idle close.
    connection.socket.unref();
    connection.origin.free.push(connection);
  }

  /** Drops a closed connection from the pool. */
  forget(connection: Http1Connection): void {
    this.#connections.delete(connection);
    if (connection.isFree) {
      connection.isFree = false;
      const free = connection.origin.free;
      const at = free.lastIndexOf(connection);
      if (at >= 0) free.splice(at, 1);
    }
  }

  /** Closes free connections idle for too long; stops when the pool has none left. */
  sweep(): void {
    const now = performance.now();
    for (const origin of this.#origins.values()) {
      const free = origin.free;
      // Oldest first (the bottom of the stack); a closed one leaves the stack through `forget`.
      while (free.length > 0) {
        const oldest = free[0] as Http1Connection;
        if (now - oldest.freeSince < oldest.idleLimitMs - SWEEP_MS) break;
        oldest.close();
        if (free[0] === oldest) free.shift();
      }
    }
    if (this.#connections.size === 0) this.#stopSweeper();
  }

  #stopSweeper(): void {
    if (this.#sweeper !== undefined) clearInterval(this.#sweeper);
    this.#sweeper = undefined;
  }

  /** Closes every socket (free or carrying a request); the pool stays usable. */
  destroy(): void {
    this.#stopSweeper();
    for (const connection of [...this.#connections]) connection.close();
    this.#connections.clear();
    for (const origin of this.#origins.values()) origin.free.length = 0;
  }
}

function sweep(pool: Http1ConnectionPool): void {
  pool.sweep();
}
