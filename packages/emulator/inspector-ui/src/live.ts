// One server-sent event stream for the page; each feed's events go to the views that asked for them.
// When the server stops answering, a banner says so (the page keeps what it showed, marked stale) and
// the stream is opened again until the server is back.

type Handler = (data: { changed?: unknown[]; reset?: boolean }) => void;

const handlers = new Map<string, Handler[]>();
let source: EventSource | undefined;
let statusEl: HTMLElement | undefined;
let bannerEl: HTMLElement | undefined;
/** The feeds this stream has listeners for (a stream opened again starts with none). */
let listening = new Set<string>();
/** The feeds the server serves (from its `hello`): a view of another feed is never asked to load. */
let served: readonly string[] = [];
let lostTimer: number | undefined;
let retryTimer: number | undefined;
let lastSeen: Date | undefined;
/** Whether the banner is up: later failed reconnects keep saying "server gone", not "reconnecting…". */
let lost = false;

/** How long the stream may be down before the banner shows (a reconnect after a burst is quicker). */
const LOST_AFTER_MS = 1500;

function setStatus(text: string, state: string): void {
  if (!statusEl) return;
  statusEl.textContent = text;
  statusEl.dataset.state = state;
}

function clock(d: Date): string {
  return d.toTimeString().slice(0, 8);
}

function showLost(): void {
  lostTimer = undefined;
  lost = true;
  setStatus('server gone', 'lost');
  document.body.classList.add('stale');
  if (!bannerEl) return;
  bannerEl.textContent = `The hookgate server is not answering: it was stopped, or its port closed. What you see is as of ${lastSeen ? clock(lastSeen) : 'the page load'} and is not updated; the page reconnects by itself when the server is back.`;
  bannerEl.hidden = false;
}

function opened(): void {
  window.clearTimeout(lostTimer);
  lostTimer = undefined;
  lastSeen = new Date();
  lost = false;
  setStatus('live', 'open');
  document.body.classList.remove('stale');
  if (bannerEl) bannerEl.hidden = true;
}

function open(): void {
  const es = new EventSource('/_hookgate/events');
  source = es;
  listening = new Set();
  es.addEventListener('open', opened);
  es.addEventListener('error', () => {
    lastSeen = lastSeen ?? new Date();
    if (!lost) setStatus('reconnecting…', 'error');
    lostTimer ??= window.setTimeout(showLost, LOST_AFTER_MS);
    // A stream the browser gave up on (an error status, not a dropped connection) is opened again here.
    if (es.readyState === EventSource.CLOSED && retryTimer === undefined) {
      retryTimer = window.setTimeout(() => {
        retryTimer = undefined;
        open();
      }, 2000);
    }
  });
  es.addEventListener('hello', (event) => {
    opened();
    const { feeds } = JSON.parse((event as MessageEvent<string>).data) as { feeds: string[] };
    served = feeds;
    for (const feed of feeds) {
      if (listening.has(feed)) continue;
      listening.add(feed);
      es.addEventListener(feed, (e) => {
        lastSeen = new Date();
        const data = JSON.parse((e as MessageEvent<string>).data) as Parameters<Handler>[0];
        for (const h of handlers.get(feed) ?? []) h(data);
      });
    }
    if (es !== source) return;
    // After a reconnect, views reload what they show (changes may have been missed).
    for (const [feed, list] of handlers) if (served.includes(feed)) for (const h of list) h({ reset: true });
  });
}

/** Opens the stream (once), reports its state in `status` and shows `banner` while the server is gone. */
export function connect(status: HTMLElement, banner?: HTMLElement): void {
  statusEl = status;
  bannerEl = banner;
  if (source) return;
  open();
}

/** Calls `handler` with each change of a feed. */
export function onFeed(feed: string, handler: Handler): void {
  const list = handlers.get(feed) ?? [];
  list.push(handler);
  handlers.set(feed, list);
}
