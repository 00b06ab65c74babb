// One server-sent event stream for the page; each feed's events go to the views that asked for them.

type Handler = (data: { changed?: unknown[]; reset?: boolean }) => void;

const handlers = new Map<string, Handler[]>();
let source: EventSource | undefined;
let statusEl: HTMLElement | undefined;
const listening = new Set<string>();

function setStatus(text: string, state: string): void {
  if (!statusEl) return;
  statusEl.textContent = text;
  statusEl.dataset.state = state;
}

/** Opens the stream (once) and reports its state in `status`. */
export function connect(status: HTMLElement): void {
  statusEl = status;
  if (source) return;
  source = new EventSource('/_hookgate/events');
  source.addEventListener('open', () => setStatus('live', 'open'));
  source.addEventListener('error', () => setStatus('reconnecting…', 'error'));
  source.addEventListener('hello', (event) => {
    setStatus('live', 'open');
    const { feeds } = JSON.parse((event as MessageEvent<string>).data) as { feeds: string[] };
    for (const feed of feeds) {
      if (listening.has(feed)) continue;
      listening.add(feed);
      source?.addEventListener(feed, (e) => {
        const data = JSON.parse((e as MessageEvent<string>).data) as Parameters<Handler>[0];
        for (const h of handlers.get(feed) ?? []) h(data);
      });
    }
    // After a reconnect, views reload what they show (changes may have been missed).
    for (const list of handlers.values()) for (const h of list) h({ reset: true });
  });
}

/** Calls `handler` with each change of a feed. */
export function onFeed(feed: string, handler: Handler): void {
  const list = handlers.get(feed) ?? [];
  list.push(handler);
  handlers.set(feed, list);
}
