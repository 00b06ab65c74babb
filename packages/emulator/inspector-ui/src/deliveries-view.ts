// The deliveries view: filters (kept in the address), the list (newest first, pages of 100 loaded on
// demand, updated live; a table on wide screens, cards on narrow ones), the detail pane, and keys.

import { getJson } from './api.js';
import type { DeliveryListPage, DeliverySummary, InspectorMeta } from '../../src/inspector/wire-types.js';
import { showDelivery } from './delivery-detail.js';
import { breakable, h, keepingFocus, replaceChildren } from './dom.js';
import { emptyState } from './empty-state.js';
import { shortTime } from './format.js';
import { installListKeys } from './list-keys.js';
import { onFeed } from './live.js';
import { showSendTest } from './send-test.js';
import { filtersFromUrl, writeFiltersToUrl } from './url-filters.js';
import type { View } from './views.js';

const PAGE = 100;

/** The list's columns: header text, and the label a cell carries on a narrow screen's card. */
const COLUMNS = ['Time · id', 'Source', 'Type', 'Event', 'State', 'Attempts', 'Last status'] as const;

function placeholder(): HTMLElement {
  return h(
    'p',
    { class: 'muted placeholder' },
    'Select a delivery to see its attempts, headers and body (keys: j / k or arrows to move, Enter to open, Escape to close).',
  );
}

export function deliveriesView(meta: InspectorMeta): View {
  const rows = new Map<string, HTMLTableRowElement>();
  /** Rows this page made (a replay, a test event): marked "new" until the page is reloaded. */
  const made = new Set<string>();
  let next: number | null = null;
  let loaded = 0;
  let openId: string | undefined;
  let reloadTimer: number | undefined;
  let loading = false;
  let again = false;
  let container: HTMLElement | undefined;

  const initial = filtersFromUrl();
  const pick = (name: string, allowed: readonly string[]) => {
    const v = initial.get(name) ?? '';
    return allowed.includes(v) ? v : '';
  };
  const state = h(
    'select',
    { id: 'f-state', name: 'state' },
    h('option', { value: '' }, 'any state'),
    ...meta.states.map((s) => h('option', { value: s }, s)),
  );
  const type = h(
    'select',
    { id: 'f-type', name: 'type' },
    h('option', { value: '' }, 'any type'),
    ...meta.types.map((t) => h('option', { value: t }, t)),
  );
  const endpoint = h(
    'select',
    { id: 'f-endpoint', name: 'endpoint' },
    h('option', { value: '' }, 'any endpoint'),
    ...meta.endpoints.map((e) => h('option', { value: e }, e)),
  );
  const search = h('input', {
    id: 'f-q',
    name: 'q',
    type: 'search',
    placeholder: 'user id, event or id',
    autocomplete: 'off',
  });
  state.value = pick('state', meta.states);
  type.value = pick('type', meta.types);
  endpoint.value = pick('endpoint', meta.endpoints);
  search.value = initial.get('q') ?? '';
  const body = h('tbody', {});
  const table = h(
    'table',
    { class: 'deliveries', 'aria-label': 'Deliveries, newest first' },
    h('thead', {}, h('tr', {}, ...COLUMNS.map((t) => h('th', { scope: 'col' }, t)))),
    body,
  );
  const empty = h('div', { class: 'empty-slot', hidden: true });
  const more = h(
    'button',
    { type: 'button', class: 'more', hidden: true, onclick: () => void load(true) },
    'Load older',
  );
  const count = h('p', { class: 'count', role: 'status', 'aria-live': 'polite' });
  const detail = h('aside', { id: 'detail', class: 'detail', 'aria-label': 'Details' }, placeholder());

  function filtering(): boolean {
    return Boolean(state.value || type.value || endpoint.value || search.value.trim());
  }

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

  function cell(cls: string, label: string, ...children: Parameters<typeof h>[2][]): HTMLTableCellElement {
    return h('td', { class: cls, 'data-label': label }, ...children);
  }

  function fillRow(tr: HTMLTableRowElement, s: DeliverySummary): void {
    tr.dataset.id = s.id;
    tr.dataset.seq = String(s.seq);
    tr.dataset.state = s.state;
    const isNew = made.has(s.id);
    tr.className = `row row-${s.state}${s.id === openId ? ' open' : ''}${isNew ? ' row-new' : ''}`;
    replaceChildren(
      tr,
      cell(
        'time',
        'Time',
        h('time', { datetime: s.receivedAt, title: s.receivedAt }, shortTime(s.receivedAt)),
        h('code', { class: 'id' }, s.id),
      ),
      cell('source', 'Source', s.source),
      cell(
        'type',
        'Type',
        s.type,
        s.actions
          ? h(
              'span',
              {
                class: 'actions-tag',
                title: `Webhooks (Actions), subscription ${s.actions.subscription}: ${s.actions.subscribe}`,
              },
              ` ${s.actions.method} · sub ${s.actions.subscription}${s.actions.batch ? ` · batch ${s.actions.batchSize}` : ''}`,
            )
          : null,
      ),
      cell(
        'event',
        'Event',
        isNew ? h('span', { class: 'new-mark' }, 'new') : null,
        h('a', { href: `#/deliveries/${s.id}`, class: 'event-link' }, s.summary || '(no summary)'),
        s.userId ? h('span', { class: 'user' }, s.userId) : null,
        s.replayOf
          ? h(
              'span',
              { class: 'replay-of' },
              'replay of ',
              h('a', { href: `#/deliveries/${s.replayOf}`, class: 'replay-link' }, s.replayOf),
            )
          : null,
        s.filteredBecause ? h('span', { class: 'filtered-because' }, breakable(s.filteredBecause)) : null,
      ),
      cell('state-cell', 'State', h('span', { class: `state state-${s.state}` }, s.state)),
      cell('attempts num', 'Attempts', s.attempts),
      cell('last num', 'Last status', s.lastStatus ?? null),
    );
  }

  function rowFor(s: DeliverySummary): HTMLTableRowElement {
    const tr = h('tr', {});
    tr.addEventListener('click', (event) => {
      if ((event.target as Element).closest('a')) return;
      location.hash = `#/deliveries/${tr.dataset.id}`;
    });
    fillRow(tr, s);
    rows.set(s.id, tr);
    return tr;
  }

  function showCount(): void {
    const none = loaded === 0;
    // An empty log is not a filter miss: it gets the help to send a first call.
    const logEmpty = none && !filtering();
    empty.hidden = !logEmpty;
    table.hidden = none;
    if (logEmpty && empty.childElementCount === 0) empty.append(emptyState(meta));
    count.textContent = logEmpty
      ? 'The log is empty.'
      : none
        ? 'No delivery matches these filters.'
        : `${loaded} deliver${loaded === 1 ? 'y' : 'ies'} shown, newest first${next !== null ? ' (more below)' : ''}.`;
  }

  async function load(older = false): Promise<void> {
    if (loading) {
      if (!older) again = true;
      return;
    }
    loading = true;
    try {
      const page = await getJson<DeliveryListPage>(
        '/_hookgate/ui/api/deliveries',
        older ? params(next ?? undefined) : params(undefined, Math.min(500, Math.max(PAGE, loaded))),
      );
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
      showCount();
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
    for (const s of (data.changed ?? []) as DeliverySummary[]) {
      const tr = rows.get(s.id);
      if (tr) keepingFocus(tr, () => fillRow(tr, s));
      else fresh = true;
      if (s.id === openId) void showDelivery(detail, openId, changed);
    }
    // A new record, or one that now matches a filter: the list reloads (at most 4 times a second).
    if (fresh || state.value) reloadSoon();
  });

  /** A record this page made (replay, test event): marked in the list, which reloads. */
  function changed(summary?: DeliverySummary): void {
    if (summary) made.add(summary.id);
    reloadSoon();
  }

  function filtersChanged(): void {
    writeFiltersToUrl({ state: state.value, type: type.value, endpoint: endpoint.value, q: search.value.trim() });
    void load();
  }

  let searchTimer: number | undefined;
  for (const el of [state, type, endpoint]) el.addEventListener('change', filtersChanged);
  search.addEventListener('input', () => {
    window.clearTimeout(searchTimer);
    searchTimer = window.setTimeout(filtersChanged, 200);
  });

  installListKeys({
    rows: body,
    active: () => container !== undefined && !container.hidden,
    openId: () => openId,
    close: () => {
      location.hash = '#/deliveries';
    },
  });

  return {
    feed: 'deliveries',
    label: 'Deliveries',
    mount(section) {
      container = section;
      replaceChildren(
        section,
        h(
          'form',
          {
            class: 'filters',
            role: 'search',
            'aria-label': 'Filter deliveries',
            onsubmit: (e: Event) => e.preventDefault(),
          },
          h('span', { class: 'filter' }, h('label', { for: 'f-state' }, 'State'), state),
          h('span', { class: 'filter' }, h('label', { for: 'f-type' }, 'Type'), type),
          h('span', { class: 'filter filter-endpoint' }, h('label', { for: 'f-endpoint' }, 'Endpoint'), endpoint),
          h('span', { class: 'filter filter-search' }, h('label', { for: 'f-q' }, 'Search'), search),
          h('a', { href: '#/deliveries/send-test', class: 'button' }, 'Send test event'),
        ),
        h('div', { class: 'split' }, h('div', { class: 'list' }, count, empty, table, more), detail),
      );
      void load();
    },
    route(rest) {
      const [id] = rest;
      for (const tr of rows.values()) tr.classList.toggle('open', tr.dataset.id === id);
      if (id === 'send-test') {
        openId = undefined;
        showSendTest(detail, meta, (records) => {
          for (const r of records) made.add(r.id);
          reloadSoon();
        });
        detail.querySelector<HTMLElement>('#send-test-title')?.focus();
      } else if (id) {
        openId = id;
        void showDelivery(detail, id, changed).then(() => detail.querySelector<HTMLElement>('#detail-title')?.focus());
      } else {
        openId = undefined;
        replaceChildren(detail, placeholder());
      }
    },
  };
}
