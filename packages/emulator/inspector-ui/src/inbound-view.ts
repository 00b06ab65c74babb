// The inbound view (`hookgate listen`): every request that reached listen, newest first, updated live;
// its detail shows the verdict with every finding, the headers and body as received, and the receiver's
// answer. Every value is set as text (dom.ts), never parsed as HTML.

import { getJson } from './api.js';
import { breakable, h, keepingFocus, replaceChildren } from './dom.js';
import { bigIntegerCount, duration, fullTime, prettyJson, shortTime } from './format.js';
import { installListKeys } from './list-keys.js';
import { onFeed } from './live.js';
import type { View } from './views.js';
import type { InboundDetail, InboundPage, InboundRow } from '../../src/inspector/wire-types.js';

/** The sender's answer budget: past it, the real sender would time out and retry. */
const SENDER_BUDGET_MS = 5000;

/** listen runs without a secret (a catch-all): the request was accepted, nothing was checked. */
function notVerified(v: InboundRow['verdict']): boolean {
  return !v.ok && v.reason === 'not_verified';
}

function verdictText(v: InboundRow['verdict']): string {
  if (notVerified(v)) return 'not verified (no secret)';
  return v.ok ? 'verified' : `refused: ${v.reason ?? 'unknown'}`;
}

function forwardText(f: InboundRow['forward']): string {
  if (!f) return 'not forwarded';
  const answer =
    f.status !== undefined ? String(f.status) : f.timedOut ? 'no answer (timed out)' : (f.error ?? 'no answer');
  return `${answer} in ${duration(f.durationMs)}`;
}

function field(label: string, value: string | Node | undefined | null): HTMLElement[] {
  return value ? [h('dt', {}, label), h('dd', {}, value)] : [];
}

function formName(form: string): string {
  return form === 'stringify' ? 'JSON.stringify' : form === 'sorted' ? 'key-sorted JSON' : form;
}

function verdictSection(d: InboundDetail): HTMLElement {
  const v = d.verdict;
  const section = h('section', {
    class: `verdict ${v.ok ? 'verdict-ok' : 'verdict-bad'}`,
    'aria-labelledby': 'verdict-title',
  });
  section.append(
    h('h3', { id: 'verdict-title' }, v.ok ? 'Verified' : notVerified(v) ? 'Not verified' : `Refused: ${v.reason}`),
    h('p', { class: 'verdict-message' }, v.message),
  );
  if (v.ok || notVerified(v)) return section;
  if (v.matchesForm) {
    section.append(
      h(
        'p',
        { class: 'matches-form' },
        `Signed form: ${formName(v.matchesForm)}. The fix: verify the exact bytes received (the raw body) before any JSON parsing, `,
        'and make sure nothing between the sender and your receiver rewrites them.',
      ),
    );
  }
  if (v.findings.length > 0) {
    const list = h('ol', { class: 'findings', 'aria-label': 'Where the bytes differ from JSON.stringify' });
    for (const f of v.findings) {
      list.append(
        h(
          'li',
          { class: 'finding', 'data-cause': f.cause },
          h('code', { class: 'finding-path' }, f.path),
          ' ',
          h('span', { class: 'finding-cause' }, f.cause),
          h('p', { class: 'finding-message' }, f.message),
          f.raw !== undefined
            ? h(
                'p',
                { class: 'finding-bytes muted' },
                `received ${f.raw}`,
                f.reserialized !== undefined ? ` · JSON.stringify writes ${f.reserialized}` : '',
              )
            : null,
        ),
      );
    }
    section.append(h('h4', {}, `Findings (${v.findings.length})`), list);
  }
  return section;
}

function forwardSection(d: InboundDetail): HTMLElement {
  const f = d.forward;
  const section = h(
    'section',
    { class: 'forward', 'aria-labelledby': 'forward-title' },
    h('h3', { id: 'forward-title' }, 'Your receiver'),
  );
  if (!f) {
    section.append(
      h('p', { class: 'muted' }, `Not forwarded (no --forward-to): listen answered ${d.answeredStatus} itself.`),
    );
    return section;
  }
  section.append(
    h(
      'dl',
      { class: 'facts' },
      ...field('URL', breakable(f.url)),
      ...field('Status', f.status !== undefined ? String(f.status) : f.timedOut ? 'no answer: timed out' : 'no answer'),
      ...field('Time', duration(f.durationMs)),
      ...field('Error', f.error === undefined ? undefined : breakable(f.error)),
      ...field('Listen answered', String(d.answeredStatus)),
    ),
  );
  if (f.slow)
    section.append(
      h(
        'p',
        { class: 'slow' },
        `Past the sender's ${SENDER_BUDGET_MS / 1000} s: the real sender would have timed out and retried this message.`,
      ),
    );
  if (f.bodyStart !== undefined)
    section.append(
      h('h4', {}, 'Start of its answer'),
      h('pre', { class: 'response', tabindex: '0', 'aria-label': 'Start of the receiver answer' }, f.bodyStart),
    );
  return section;
}

/** Renders one inbound request into `pane`. */
async function showInbound(pane: HTMLElement, id: string): Promise<void> {
  let d: InboundDetail;
  try {
    d = await getJson<InboundDetail>(`/_hookgate/ui/api/inbound/${encodeURIComponent(id)}`);
  } catch (error) {
    replaceChildren(pane, h('p', { class: 'error', role: 'alert' }, (error as Error).message));
    return;
  }
  const headers = h(
    'table',
    { class: 'headers' },
    h('caption', {}, 'Headers received (signature shortened, credentials masked)'),
  );
  const bigIntegers = bigIntegerCount(d.body);
  for (const [name, value] of d.headers)
    headers.append(h('tr', {}, h('th', { scope: 'row' }, name), h('td', {}, value)));
  replaceChildren(
    pane,
    h('h2', { id: 'detail-title', tabindex: '-1' }, `Request ${d.id}`),
    h(
      'p',
      { class: 'detail-summary' },
      h(
        'span',
        {
          class: `state ${d.verdict.ok ? 'state-delivered' : notVerified(d.verdict) ? 'state-pending' : 'state-failed'}`,
        },
        d.verdict.ok ? 'verified' : notVerified(d.verdict) ? 'not verified' : 'refused',
      ),
      ' ',
      h('strong', { class: 'event-name' }, d.summary ?? d.type ?? 'not a message'),
    ),
    h(
      'dl',
      { class: 'facts' },
      ...field('Received', fullTime(d.receivedAt)),
      ...field('Request', breakable(`${d.method} ${d.path}`)),
      ...field('Type', d.type),
      ...field('Size', `${d.bodyBytes} bytes`),
      ...field('Handled in', duration(d.durationMs)),
    ),
    verdictSection(d),
    forwardSection(d),
    headers,
    h('h3', {}, 'Body'),
    d.bodyTruncated ? h('p', { class: 'muted' }, 'Cut for the view (the receiver got every byte).') : null,
    bigIntegers > 0
      ? h(
          'p',
          { class: 'big-integers', role: 'note' },
          `${bigIntegers === 1 ? 'An integer' : `${bigIntegers} integers`} beyond 2^53 − 1: JSON parsing (the pretty view, and most receivers) changes ${bigIntegers === 1 ? 'it' : 'them'} to the nearest double. The exact text below shows the digits received.`,
        )
      : null,
    // A refused request is explained by its exact bytes, which pretty-printing would re-serialize: open them (and when big integers would change).
    h(
      'details',
      { open: !d.verdict.ok || bigIntegers > 0 },
      h('summary', {}, `Exact text received (${d.bodyBytes} bytes)`),
      h('pre', { class: 'raw', tabindex: '0', 'aria-label': 'Body, exact text' }, d.body),
    ),
    h(
      'details',
      { open: d.verdict.ok },
      h('summary', {}, 'Pretty (re-serialized for reading: 1.0 shows as 1)'),
      h('pre', { class: 'body', tabindex: '0', 'aria-label': 'Body, pretty' }, prettyJson(d.body)),
    ),
  );
}

/** The "Inbound" tab: shown when the server lists the `inbound` feed (`hookgate listen`). */
export function inboundView(): View {
  const rows = new Map<string, HTMLTableRowElement>();
  const body = h('tbody', {});
  const count = h('p', { class: 'count', role: 'status', 'aria-live': 'polite' });
  const more = h(
    'button',
    { type: 'button', class: 'more', hidden: true, onclick: () => void load(true) },
    'Load older',
  );
  const placeholder = () =>
    h(
      'p',
      { class: 'muted placeholder' },
      'Select a request to see its verdict, headers, body and the receiver’s answer (keys: j / k or arrows to move, Enter to open, Escape to close).',
    );
  const detail = h('aside', { id: 'inbound-detail', class: 'detail', 'aria-label': 'Request details' }, placeholder());
  let section: HTMLElement | undefined;
  let next: number | null = null;
  let openId: string | undefined;
  let loading = false;
  let again = false;
  let reloadTimer: number | undefined;

  function fillRow(tr: HTMLTableRowElement, r: InboundRow): void {
    tr.dataset.id = r.id;
    tr.dataset.verdict = r.verdict.ok ? 'verified' : 'refused';
    tr.className = `row inbound-row ${r.verdict.ok ? 'row-verified' : 'row-refused'}${r.id === openId ? ' open' : ''}`;
    const f = r.forward;
    replaceChildren(
      tr,
      h('td', { class: 'time' }, h('time', { datetime: r.receivedAt, title: r.receivedAt }, shortTime(r.receivedAt))),
      h('td', { class: 'method' }, r.method),
      h('td', { class: 'path' }, breakable(r.path)),
      h(
        'td',
        { class: 'event' },
        h(
          'a',
          { href: `#/inbound/${r.id}`, class: 'event-link' },
          r.type ? `${r.type}${r.summary ? ` · ${r.summary}` : ''}` : 'not a message',
        ),
      ),
      h(
        'td',
        { class: 'verdict-cell' },
        h(
          'span',
          {
            class: `state ${r.verdict.ok ? 'state-delivered' : notVerified(r.verdict) ? 'state-pending' : 'state-failed'}`,
          },
          verdictText(r.verdict),
        ),
      ),
      h(
        'td',
        { class: 'receiver' },
        forwardText(f),
        f?.slow
          ? h(
              'span',
              { class: 'slow-flag', title: 'The real sender would have timed out and retried' },
              ` ⚠ past ${SENDER_BUDGET_MS / 1000} s`,
            )
          : null,
      ),
    );
  }

  function rowFor(r: InboundRow): HTMLTableRowElement {
    const tr = h('tr', {});
    tr.addEventListener('click', (event) => {
      if ((event.target as Element).closest('a')) return;
      location.hash = `#/inbound/${r.id}`;
    });
    fillRow(tr, r);
    rows.set(r.id, tr);
    return tr;
  }

  async function load(older = false): Promise<void> {
    if (loading) {
      if (!older) again = true;
      return;
    }
    loading = true;
    try {
      const p = new URLSearchParams({ limit: '200' });
      if (older && next !== null) p.set('before', String(next));
      const page = await getJson<InboundPage>('/_hookgate/ui/api/inbound', p);
      keepingFocus(body, () => {
        if (!older) {
          rows.clear();
          replaceChildren(body);
        }
        for (const r of page.items) body.append(rowFor(r));
      });
      next = page.next;
      more.hidden = next === null;
      count.textContent =
        rows.size === 0
          ? 'No request yet: point the sender (or your tunnel) at this address, any path.'
          : `${rows.size} of ${page.total} request${page.total === 1 ? '' : 's'} shown, newest first${page.dropped ? ` (${page.dropped} older dropped)` : ''}.`;
    } catch (error) {
      count.textContent = `Could not load the list: ${(error as Error).message}`;
    } finally {
      loading = false;
      if (again) {
        again = false;
        void load();
      }
    }
  }

  function reloadSoon(): void {
    if (reloadTimer !== undefined) return;
    reloadTimer = window.setTimeout(() => {
      reloadTimer = undefined;
      void load();
    }, 250);
  }

  onFeed('inbound', (data) => {
    if (data.reset) {
      reloadSoon();
      return;
    }
    // New requests go on top at once (the list is newest first); a known one is updated in place.
    const fresh = ((data.changed ?? []) as InboundRow[]).slice().sort((a, b) => a.seq - b.seq);
    for (const r of fresh) {
      const tr = rows.get(r.id);
      if (tr) keepingFocus(tr, () => fillRow(tr, r));
      else body.prepend(rowFor(r));
      if (r.id === openId) void showInbound(detail, r.id);
    }
    if (fresh.length > 0) count.textContent = `${rows.size} request${rows.size === 1 ? '' : 's'} shown, newest first.`;
  });

  installListKeys({
    rows: body,
    active: () => section !== undefined && !section.hidden,
    openId: () => openId,
    close: () => {
      location.hash = '#/inbound';
    },
  });

  return {
    feed: 'inbound',
    label: 'Inbound',
    mount(container) {
      section = container;
      replaceChildren(
        container,
        h(
          'div',
          { class: 'split' },
          h(
            'div',
            { class: 'list' },
            count,
            h(
              'table',
              { class: 'deliveries inbound', 'aria-label': 'Inbound requests, newest first' },
              h(
                'thead',
                {},
                h(
                  'tr',
                  {},
                  ...['Time', 'Method', 'Path', 'Message', 'Verdict', 'Receiver'].map((t) =>
                    h('th', { scope: 'col' }, t),
                  ),
                ),
              ),
              body,
            ),
            more,
          ),
          detail,
        ),
      );
      void load();
    },
    route(rest) {
      const [id] = rest;
      for (const tr of rows.values()) tr.classList.toggle('open', tr.dataset.id === id);
      if (id) {
        openId = id;
        void showInbound(detail, id).then(() => detail.querySelector<HTMLElement>('#detail-title')?.focus());
      } else {
        openId = undefined;
        replaceChildren(detail, placeholder());
      }
    },
  };
}
