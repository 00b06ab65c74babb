// One delivery: summary, actions, attempts per endpoint on a timeline, headers and body, curl.

import { ApiError, getJson, postJson } from './api.js';
import type { AttemptView, DeliveryDetail, DeliverySummary } from '../../src/inspector/wire-types.js';
import { breakable, h, replaceChildren } from './dom.js';
import { duration, fullTime, prettyJson, shortTime } from './format.js';

function field(label: string, value: string | Node | undefined | null): HTMLElement[] {
  return value ? [h('dt', {}, label), h('dd', {}, value)] : [];
}

function deliveryLink(id: string | undefined): HTMLElement | undefined {
  return id ? h('a', { href: `#/deliveries/${id}`, class: 'record-link' }, id) : undefined;
}

function statusText(a: AttemptView): string {
  if (a.error?.code === 'http') return a.error.message;
  if (a.error)
    return a.status !== undefined
      ? `${a.status} ${a.error.code}: ${a.error.message}`
      : `${a.error.code}: ${a.error.message}`;
  return String(a.status ?? '');
}

function timeline(d: DeliveryDetail): HTMLElement {
  const byEndpoint = new Map<string, AttemptView[]>();
  for (const a of d.attemptList) byEndpoint.set(a.endpoint, [...(byEndpoint.get(a.endpoint) ?? []), a]);
  for (const e of d.endpoints) if (!byEndpoint.has(e)) byEndpoint.set(e, []);
  const first = d.firstAttemptAt ? Date.parse(d.firstAttemptAt) : undefined;
  const section = h(
    'section',
    { class: 'timeline', 'aria-label': 'Attempts' },
    h('h3', {}, `Attempts (${d.attemptList.length})`),
  );
  for (const [endpoint, attempts] of byEndpoint) {
    const list = h('ol', { class: 'attempts' });
    for (const a of attempts) {
      const offset = first !== undefined ? Date.parse(a.at) - first : 0;
      const bar = h('span', { class: 'bar', 'aria-hidden': 'true' });
      bar.style.setProperty('width', `${Math.max(2, Math.min(100, a.durationMs / 50))}%`);
      list.append(
        h(
          'li',
          { class: `attempt outcome-${a.outcome}`, 'data-status': a.status ?? a.error?.code ?? '' },
          h('span', { class: 'round' }, `#${a.round}`),
          h('time', { datetime: a.at, title: fullTime(a.at) }, `${shortTime(a.at)} (+${duration(offset)})`),
          h('span', { class: 'status' }, breakable(statusText(a))),
          h('span', { class: 'took' }, `${Math.round(a.durationMs)} ms`),
          h('span', { class: 'bar-row' }, bar),
          a.responseStart ? h('code', { class: 'response' }, a.responseStart) : null,
        ),
      );
    }
    if (attempts.length === 0)
      list.append(
        h(
          'li',
          { class: 'attempt none' },
          h('span', { class: 'status' }, d.state === 'pending' ? 'queued' : 'no attempt'),
        ),
      );
    section.append(h('h4', { class: 'endpoint' }, breakable(endpoint)), list);
  }
  return section;
}

function schedule(d: DeliveryDetail): HTMLElement | null {
  if (d.state !== 'pending' || !d.nextAttemptAt) return null;
  const now = Date.parse(d.now);
  const next = Date.parse(d.nextAttemptAt);
  const parts = [`Next retry at ${fullTime(d.nextAttemptAt)} (in ${duration(next - now)}).`];
  if (d.windowEndsAt)
    parts.push(
      `The ${duration(d.windowMs)} retry window closes at ${fullTime(d.windowEndsAt)} (${duration(Date.parse(d.windowEndsAt) - now)} left).`,
    );
  return h('p', { class: 'schedule' }, parts.join(' '));
}

/** The body: as sent (pretty, and its exact bytes); for a filtered delivery, what it would have sent. */
function bodyBlocks(d: DeliveryDetail, filtered: boolean): Array<HTMLElement | null> {
  const bytes = new TextEncoder().encode(d.body).length;
  if (filtered && d.body === '')
    return [
      h('h3', {}, 'Message'),
      h('p', { class: 'muted no-message' }, 'No message could be built from this call, so there are no bytes to show.'),
    ];
  return [
    h('h3', {}, filtered ? 'The message it would have sent (never sent)' : 'Body'),
    h('pre', { class: 'body', tabindex: '0', 'aria-label': 'Body, pretty' }, prettyJson(d.body)),
    h(
      'details',
      {},
      h(
        'summary',
        {},
        filtered ? `Exact bytes it would have sent (${bytes} bytes)` : `Exact bytes sent (${bytes} bytes)`,
      ),
      h('pre', { class: 'raw' }, d.body),
    ),
  ];
}

/** What the source's tracking plan did: each violation (rule field and words) and the fields omitted. */
function trackingPlan(d: DeliveryDetail): HTMLElement | null {
  const p = d.protocols;
  if (!p) return null;
  const names = (list: string[]) => list.map((n) => JSON.stringify(n)).join(', ');
  return h(
    'section',
    { class: 'tracking-plan', 'aria-labelledby': 'tracking-plan-title' },
    h('h3', { id: 'tracking-plan-title' }, 'Tracking plan'),
    p.violations.length > 0
      ? h(
          'ul',
          {},
          ...p.violations.map((v) => h('li', {}, h('code', {}, v.field), ` ${v.type}: `, breakable(v.description))),
        )
      : null,
    p.omitted.length > 0 ? h('p', {}, `Omitted, not in the plan: ${names(p.omitted)}`) : null,
    p.omittedOnViolation.length > 0 ? h('p', {}, `Omitted, broke the plan: ${names(p.omittedOnViolation)}`) : null,
  );
}

/** What the intake noticed about the call (e.g. a big integer JSON parsing changed) and the call as the client sent it. */
function intakeNotes(d: DeliveryDetail): HTMLElement[] {
  const out: HTMLElement[] = [];
  if (d.notes && d.notes.length > 0) {
    out.push(
      h(
        'section',
        { class: 'intake-notes', 'aria-labelledby': 'intake-notes-title' },
        h('h3', { id: 'intake-notes-title' }, 'Changed by JSON parsing'),
        h('ul', {}, ...d.notes.map((n) => h('li', {}, breakable(n)))),
      ),
    );
  }
  // Kept with notes, and for a call the intake refused (its text is what explains the refusal).
  if (d.rawCall !== undefined)
    out.push(
      h(
        'details',
        { class: 'raw-call', open: true },
        h('summary', {}, 'The call as the client sent it'),
        h('pre', { class: 'raw' }, d.rawCall),
      ),
    );
  return out;
}

/** Renders a delivery into `pane`, with its actions; `onChanged` is told of a new record (replay). */
export async function showDelivery(
  pane: HTMLElement,
  id: string,
  onChanged: (summary?: DeliverySummary) => void,
): Promise<void> {
  let d: DeliveryDetail;
  try {
    d = await getJson<DeliveryDetail>(`/_hookgate/ui/api/deliveries/${encodeURIComponent(id)}`);
  } catch (error) {
    replaceChildren(pane, h('p', { class: 'error', role: 'alert' }, (error as Error).message));
    return;
  }
  const message = h('p', { class: 'action-result', role: 'status', 'aria-live': 'polite', 'data-for': d.id });
  // A live update re-renders the pane: what an action said about this delivery stays (moved, not re-announced).
  const said = pane.querySelector<HTMLElement>(`.action-result[data-for="${CSS.escape(d.id)}"]`);
  if (said) {
    message.className = said.className;
    message.setAttribute('role', said.getAttribute('role') ?? 'status');
    while (said.firstChild) message.appendChild(said.firstChild);
  }
  const run = async (label: string, path: string) => {
    message.classList.remove('error');
    message.setAttribute('role', 'status');
    message.textContent = `${label}…`;
    try {
      const r = await postJson<{ record: DeliverySummary }>(path);
      if (r.record.id === d.id) message.textContent = `${label}: started.`;
      else replaceChildren(message, `${label}: sent as `, deliveryLink(r.record.id), '.');
      onChanged(r.record);
    } catch (error) {
      message.textContent = `${label} failed: ${error instanceof ApiError ? error.message : String(error)}`;
    }
  };
  const curl = h('pre', { class: 'curl', tabindex: '0', 'aria-label': 'curl command' }, d.curl);
  const actions = h(
    'div',
    { class: 'actions' },
    h(
      'button',
      {
        type: 'button',
        disabled: d.body === '',
        onclick: () => void run('Replay', `/_hookgate/deliveries/${d.id}/replay`),
      },
      'Replay',
    ),
    d.state === 'pending' && d.nextAttemptAt
      ? h(
          'button',
          { type: 'button', onclick: () => void run('Retry now', `/_hookgate/deliveries/${d.id}/retry`) },
          'Retry now',
        )
      : null,
    d.curl
      ? h(
          'button',
          {
            type: 'button',
            // eslint-disable-next-line @typescript-eslint/no-misused-promises -- the inspector's copy handler catches every failure itself; its promise never rejects
            onclick: async () => {
              if (d.signed && d.secretKnown === false) {
                // Nothing is copied: a command signed with a secret nobody can look up would only get a 401.
                message.classList.add('error');
                message.setAttribute('role', 'alert');
                message.textContent = `Not copied: ${d.id} was signed, but its source no longer has a shared secret (removed after this delivery), so there is no secret to put in HOOKGATE_SECRET and the command could not sign. Give the source its sharedSecret again to copy it.`;
                return;
              }
              try {
                await navigator.clipboard.writeText(d.curl);
                message.textContent = d.signed
                  ? 'Copied. Set HOOKGATE_SECRET in your shell: the command signs the body with it.'
                  : 'Copied.';
              } catch {
                const details = curl.parentElement;
                if (details instanceof HTMLDetailsElement) details.open = true;
                const range = document.createRange();
                range.selectNodeContents(curl);
                getSelection()?.removeAllRanges();
                getSelection()?.addRange(range);
                message.textContent = 'The clipboard is not available here: the command is selected below.';
              }
            },
          },
          'Copy as curl',
        )
      : null,
  );
  const filtered = d.state === 'filtered';
  const headers = h('table', { class: 'headers' }, h('caption', {}, 'Headers sent'));
  for (const [name, value] of Object.entries(d.headers))
    headers.append(h('tr', {}, h('th', { scope: 'row' }, name), h('td', {}, value)));
  replaceChildren(
    pane,
    h('h2', { id: 'detail-title', tabindex: '-1' }, `Delivery ${d.id}`),
    h(
      'p',
      { class: 'detail-summary' },
      h('span', { class: `state state-${d.state}` }, d.state),
      ' ',
      h('strong', { class: 'event-name' }, d.summary),
    ),
    h(
      'dl',
      { class: 'facts' },
      ...field('Type', d.type),
      ...field('Source', d.source),
      ...field('Origin', d.origin),
      ...field('Method', d.actions?.method),
      ...field(
        'Subscription',
        d.actions
          ? `${d.actions.subscription}${d.actions.name ? ` (${d.actions.name})` : ''}: ${d.actions.subscribe}`
          : undefined,
      ),
      ...field(
        'Batch size',
        d.actions
          ? d.actions.batch
            ? `${d.actions.batchSize} events; X-Signature covers the first only`
            : '1 (not batched)'
          : undefined,
      ),
      ...field('User', d.userId),
      ...field('Received', fullTime(d.receivedAt)),
      ...field('First attempt', fullTime(d.firstAttemptAt)),
      ...field('Delivered to', d.deliveredTo === undefined ? undefined : breakable(d.deliveredTo)),
      ...field('Replay of', deliveryLink(d.replayOf)),
      ...field('Duplicate of', deliveryLink(d.duplicateOf)),
      ...field('Reason', d.state === 'filtered' || d.reason === undefined ? undefined : breakable(d.reason)),
    ),
    filtered
      ? h(
          'section',
          { class: 'filtered-why', 'aria-labelledby': 'filtered-title' },
          h('h3', { id: 'filtered-title' }, 'Why it was filtered'),
          h('p', {}, breakable(d.filteredBecause ?? 'Not sent.')),
        )
      : null,
    ...intakeNotes(d),
    trackingPlan(d),
    actions,
    message,
    schedule(d),
    filtered ? null : timeline(d),
    filtered ? null : headers,
    ...bodyBlocks(d, filtered),
    d.curl ? h('details', {}, h('summary', {}, 'curl command'), curl) : null,
  );
}
