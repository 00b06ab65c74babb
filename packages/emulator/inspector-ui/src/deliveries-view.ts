// The deliveries view: filters, the list (newest first, pages of 100 loaded on demand, updated live)
// and the detail pane.

import { getJson, type ListPage, type Meta, type Summary } from './api.js';
import { showDelivery } from './delivery-detail.js';
import { h, keepingFocus, replaceChildren } from './dom.js';
import { shortTime } from './format.js';
import { onFeed } from './live.js';
import { showSendTest } from './send-test.js';
import type { View } from './views.js';

const PAGE = 100;

export function deliveriesView(meta: Meta): View {
  const rows = new Map<string, HTMLTableRowElement>();
  let next: number | null = null;
  let loaded = 0;
  let openId: string | undefined;
  let reloadTimer: number | undefined;
  let loading = false;
  let again = false;

  const state = h('select', { id: 'f-state', name: 'state' }, h('option', { value: '' }, 'any state'), ...meta.states.map((s) => h('option', { value: s }, s)));
  const type = h('select', { id: 'f-type', name: 'type' }, h('option', { value: '' }, 'any type'), ...meta.types.map((t) => h('option', { value: t }, t)));
  const endpoint = h('select', { id: 'f-endpoint', name: 'endpoint' }, h('option', { value: '' }, 'any endpoint'), ...meta.endpoints.map((e) => h('option', { value: e }, e)));
  const search = h('input', { id: 'f-q', name: 'q', type: 'search', placeholder: 'user id or event', autocomplete: 'off' });
  const body = h('tbody', {});
  const more = h('button', { type: 'button', class: 'more', hidden: true, onclick: () => void load(true) }, 'Load older');
  const count = h('p', { class: 'count', role: 'status', 'aria-live': 'polite' });
  const detail = h('aside', { id: 'detail', class: 'detail', 'aria-label': 'Details' }, h('p', { class: 'muted' }, 'Select a delivery to see its attempts, headers and body.'));

  function params(before?: number, limit = PAGE): URLSearchParams {
    const p = new URLSearchParams();
    if (state.value) p.set('state', state.value);
    if (type.value) p.set('type', type.value);
    if (endpoint.value) p.set('endpoint', endpoint.value);
    if (search.value.trim()) p.set('q', search.value.trim());
    if (before !== undefined) p.set('before', String(before));
    p.set('limit', String(limit));
    return p;
  }

  function fillRow(tr: HTMLTableRowElement, s: Summary): void {
    tr.dataset.id = s.id;
    tr.dataset.seq = String(s.seq);
    tr.dataset.state = s.state;
    tr.className = `row row-${s.state}${s.id === openId ? ' open' : ''}`;
    replaceChildren(
      tr,
      h('td', { class: 'time' }, h('time', { datetime: s.receivedAt, title: s.receivedAt }, shortTime(s.receivedAt))),
      h('td', { class: 'source' }, s.source),
      h('td', { class: 'type' }, s.type),
      h('td', { class: 'event' }, h('a', { href: `#/deliveries/${s.id}`, class: 'event-link' }, s.summary || '(no summary)'), s.userId ? h('span', { class: 'user' }, s.userId) : null),
      h('td', { class: 'state-cell' }, h('span', { class: `state state-${s.state}` }, s.state)),
      h('td', { class: 'attempts num' }, s.attempts),
      h('td', { class: 'last num' }, s.lastStatus ?? ''),
    );
  }

  function rowFor(s: Summary): HTMLTableRowElement {
    const tr = h('tr', {});
    tr.addEventListener('click', (event) => {
      if ((event.target as Element).closest('a')) return;
      location.hash = `#/deliveries/${s.id}`;
    });
    fillRow(tr, s);
    rows.set(s.id, tr);
    return tr;
  }

  async function load(older = false): Promise<void> {
    if (loading) {
      if (!older) again = true;
      return;
    }
    loading = true;
    try {
      const page = await getJson<ListPage>('/_hookgate/ui/api/deliveries', older ? params(next ?? undefined) : params(undefined, Math.min(500, Math.max(PAGE, loaded))));
      keepingFocus(body, () => {
        if (!older) {
          rows.clear();
          replaceChildren(body);
          loaded = 0;
        }
        for (const s of page.items) body.append(rowFor(s));
      });
      loaded += page.items.length;
      next = page.next;
      more.hidden = next === null;
      count.textContent = loaded === 0 ? 'No delivery matches.' : `${loaded} deliver${loaded === 1 ? 'y' : 'ies'} shown, newest first${next !== null ? ' (more below)' : ''}.`;
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

  onFeed('deliveries', (data) => {
    if (data.reset) {
      reloadSoon();
      if (openId) void showDelivery(detail, openId, changed);
      return;
    }
    let fresh = false;
    for (const s of (data.changed ?? []) as Summary[]) {
      const tr = rows.get(s.id);
      if (tr) keepingFocus(tr, () => fillRow(tr, s));
      else fresh = true;
      if (s.id === openId) void showDelivery(detail, openId, changed);
    }
    // A new record, or one that now matches a filter: the list reloads (at most 4 times a second).
    if (fresh || state.value) reloadSoon();
  });

  function changed(): void {
    reloadSoon();
  }

  let searchTimer: number | undefined;
  for (const el of [state, type, endpoint]) el.addEventListener('change', () => void load());
  search.addEventListener('input', () => {
    window.clearTimeout(searchTimer);
    searchTimer = window.setTimeout(() => void load(), 200);
  });

  return {
    feed: 'deliveries',
    label: 'Deliveries',
    mount(container) {
      replaceChildren(
        container,
        h(
          'form',
          { class: 'filters', role: 'search', 'aria-label': 'Filter deliveries', onsubmit: (e: Event) => e.preventDefault() },
          h('label', { for: 'f-state' }, 'State'),
          state,
          h('label', { for: 'f-type' }, 'Type'),
          type,
          h('label', { for: 'f-endpoint' }, 'Endpoint'),
          endpoint,
          h('label', { for: 'f-q' }, 'Search'),
          search,
          h('a', { href: '#/deliveries/send-test', class: 'button' }, 'Send test event'),
        ),
        h(
          'div',
          { class: 'split' },
          h(
            'div',
            { class: 'list' },
            count,
            h(
              'table',
              { class: 'deliveries', 'aria-label': 'Deliveries, newest first' },
              h(
                'thead',
                {},
                h('tr', {}, ...['Time', 'Source', 'Type', 'Event', 'State', 'Attempts', 'Last status'].map((t) => h('th', { scope: 'col' }, t))),
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
      if (id === 'send-test') {
        openId = undefined;
        showSendTest(detail, meta, () => reloadSoon());
        detail.querySelector<HTMLElement>('#send-test-title')?.focus();
      } else if (id) {
        openId = id;
        void showDelivery(detail, id, changed).then(() => detail.querySelector<HTMLElement>('#detail-title')?.focus());
      }
    },
  };
}
