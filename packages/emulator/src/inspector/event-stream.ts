import type http from 'node:http';
import type { InspectorFeed } from './inspector-feed.js';

/** How often changes are sent (changes in between are merged: one row per item). */
export const EVENT_FLUSH_MS = 150;
/** More changes than this in one flush: the page is told to reload instead. */
export const EVENT_RESET_AFTER = 200;
const KEEPALIVE_MS = 15_000;

/**
 * The server-sent event stream of `/_hookgate/events`: it watches the feeds only while a page listens,
 * merges changes per item, and sends each feed's changed rows at most every `EVENT_FLUSH_MS`, so a
 * burst of 20,000 deliveries a second costs the pages a few messages a second.
 *
 * @example
 * const stream = new EventStream([deliveriesFeed]);
 * stream.attach(req, res);
 */
export class EventStream {
  readonly #feeds: readonly InspectorFeed[];
  readonly #clients = new Set<http.ServerResponse>();
  readonly #dirty = new Map<string, Set<string>>();
  #unwatch: Array<() => void> = [];
  #flushTimer: NodeJS.Timeout | undefined;
  #keepalive: NodeJS.Timeout | undefined;

  constructor(feeds: readonly InspectorFeed[]) {
    this.#feeds = feeds;
  }

  /** Pages listening now. */
  get size(): number {
    return this.#clients.size;
  }

  /** Takes a request over as an event stream until the page goes away. */
  attach(req: http.IncomingMessage, res: http.ServerResponse, headers: Record<string, string>): void {
    res.writeHead(200, {
      ...headers,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
    });
    res.write(`retry: 1000\nevent: hello\ndata: ${JSON.stringify({ feeds: this.#feeds.map((f) => f.name) })}\n\n`);
    this.#clients.add(res);
    if (this.#clients.size === 1) this.#start();
    const done = () => {
      if (!this.#clients.delete(res)) return;
      if (this.#clients.size === 0) this.#stop();
    };
    req.on('close', done);
    res.on('close', done);
  }

  /** Ends every stream (the server is closing). */
  close(): void {
    for (const res of this.#clients) res.end();
    this.#clients.clear();
    this.#stop();
  }

  #start(): void {
    for (const feed of this.#feeds) {
      const set = new Set<string>();
      this.#dirty.set(feed.name, set);
      this.#unwatch.push(
        feed.watch((id) => {
          set.add(id);
          this.#flushTimer ??= setTimeout(() => this.#flush(), EVENT_FLUSH_MS);
        }),
      );
    }
    this.#keepalive = setInterval(() => this.#broadcast(': keep-alive\n\n'), KEEPALIVE_MS);
    this.#keepalive.unref();
  }

  #stop(): void {
    for (const u of this.#unwatch) u();
    this.#unwatch = [];
    this.#dirty.clear();
    if (this.#flushTimer) clearTimeout(this.#flushTimer);
    if (this.#keepalive) clearInterval(this.#keepalive);
    this.#flushTimer = undefined;
    this.#keepalive = undefined;
  }

  #flush(): void {
    this.#flushTimer = undefined;
    for (const feed of this.#feeds) {
      const set = this.#dirty.get(feed.name);
      if (!set || set.size === 0) continue;
      let data: unknown;
      if (set.size > EVENT_RESET_AFTER) data = { reset: true };
      else data = { changed: [...set].map((id) => feed.row(id)).filter((r) => r !== undefined) };
      set.clear();
      this.#broadcast(`event: ${feed.name}\ndata: ${JSON.stringify(data)}\n\n`);
    }
  }

  #broadcast(chunk: string): void {
    for (const res of this.#clients) res.write(chunk);
  }
}
