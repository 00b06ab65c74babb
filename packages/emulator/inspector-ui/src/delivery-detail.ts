// One delivery: summary, actions, attempts per endpoint on a timeline, headers and body, curl.

import { ApiError, getJson, postJson, type AttemptView, type Detail, type Summary } from './api.js';
import { h, replaceChildren } from './dom.js';
import { duration, fullTime, prettyJson, shortTime } from './format.js';

function field(label: string, value: string | undefined | null): HTMLElement[] {
  return value ? [h('dt', {}, label), h('dd', {}, value)] : [];
}

function statusText(a: AttemptView): string {
  if (a.error?.code === 'http') return a.error.message;
  if (a.error) return a.status !== undefined ? `${a.status} ${a.error.code}: ${a.error.message}` : `${a.error.code}: ${a.error.message}`;
  return String(a.status ?? '');
}

function timeline(d: Detail): HTMLElement {
  const byEndpoint = new Map<string, AttemptView[]>();
  for (const a of d.attemptList) byEndpoint.set(a.endpoint, [...(byEndpoint.get(a.endpoint) ?? []), a]);
  for (const e of d.endpoints) if (!byEndpoint.has(e)) byEndpoint.set(e, []);
  const first = d.firstAttemptAt ? Date.parse(d.firstAttemptAt) : undefined;
  const section = h('section', { class: 'timeline', 'aria-label': 'Attempts' }, h('h3', {}, `Attempts (${d.attemptList.length})`));
  if (d.state === 'filtered') section.append(h('p', { class: 'reason' }, `Filtered, never sent: ${d.reason ?? 'no reason recorded'}`));
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
          h('span', { class: 'status' }, statusText(a)),
          h('span', { class: 'took' }, `${Math.round(a.durationMs)} ms`),
          bar,
          a.responseStart ? h('code', { class: 'response' }, a.responseStart) : null,
        ),
      );
    }
    if (attempts.length === 0) list.append(h('li', { class: 'attempt none' }, d.state === 'pending' ? 'queued' : 'no attempt'));
    section.append(h('h4', {}, endpoint), list);
  }
  return section;
}

function schedule(d: Detail): HTMLElement | null {
  if (d.state !== 'pending' || !d.nextAttemptAt) return null;
  const now = Date.parse(d.now);
  const next = Date.parse(d.nextAttemptAt);
  const parts = [`Next retry at ${fullTime(d.nextAttemptAt)} (in ${duration(next - now)}).`];
  if (d.windowEndsAt) parts.push(`The ${duration(d.windowMs)} retry window closes at ${fullTime(d.windowEndsAt)} (${duration(Date.parse(d.windowEndsAt) - now)} left).`);
  return h('p', { class: 'schedule' }, parts.join(' '));
}

/** Renders a delivery into `pane`, with its actions; `onChanged` is told of a new record (replay). */
export async function showDelivery(pane: HTMLElement, id: string, onChanged: (summary?: Summary) => void): Promise<void> {
  let d: Detail;
  try {
    d = await getJson<Detail>(`/_hookgate/ui/api/deliveries/${encodeURIComponent(id)}`);
  } catch (error) {
    replaceChildren(pane, h('p', { class: 'error', role: 'alert' }, (error as Error).message));
    return;
  }
  const message = h('p', { class: 'action-result', role: 'status', 'aria-live': 'polite' });
  const run = async (label: string, path: string) => {
    message.textContent = `${label}…`;
    try {
      const r = await postJson<{ record: Summary }>(path);
      message.textContent = r.record.id === d.id ? `${label}: started.` : `${label}: sent as ${r.record.id}.`;
      onChanged(r.record);
    } catch (error) {
      message.textContent = `${label} failed: ${error instanceof ApiError ? error.message : String(error)}`;
    }
  };
  const curl = h('pre', { class: 'curl', tabindex: '0', 'aria-label': 'curl command' }, d.curl);
  const actions = h(
    'div',
    { class: 'actions' },
    h('button', { type: 'button', disabled: d.body === '', onclick: () => void run('Replay', `/_hookgate/deliveries/${d.id}/replay`) }, 'Replay'),
    d.state === 'pending' && d.nextAttemptAt
      ? h('button', { type: 'button', onclick: () => void run('Retry now', `/_hookgate/deliveries/${d.id}/retry`) }, 'Retry now')
      : null,
    d.curl
      ? h(
          'button',
          {
            type: 'button',
            onclick: async () => {
              try {
                await navigator.clipboard.writeText(d.curl);
                message.textContent = d.signed ? 'Copied. Set HOOKGATE_SECRET in your shell: the command signs the body with it.' : 'Copied.';
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
  const headers = h('table', { class: 'headers' }, h('caption', {}, 'Headers sent'));
  for (const [name, value] of Object.entries(d.headers)) headers.append(h('tr', {}, h('th', { scope: 'row' }, name), h('td', {}, value)));
  replaceChildren(
    pane,
    h('h2', { id: 'detail-title', tabindex: '-1' }, `Delivery ${d.id}`),
    h('p', { class: 'detail-summary' }, h('span', { class: `state state-${d.state}` }, d.state), ' ', h('strong', { class: 'event-name' }, d.summary)),
    h(
      'dl',
      { class: 'facts' },
      ...field('Type', d.type),
      ...field('Source', d.source),
      ...field('Origin', d.origin),
      ...field('User', d.userId),
      ...field('Received', fullTime(d.receivedAt)),
      ...field('First attempt', fullTime(d.firstAttemptAt)),
      ...field('Delivered to', d.deliveredTo),
      ...field('Replay of', d.replayOf),
      ...field('Reason', d.state === 'filtered' ? undefined : d.reason),
    ),
    actions,
    message,
    schedule(d),
    timeline(d),
    headers,
    h('h3', {}, 'Body'),
    h('pre', { class: 'body', tabindex: '0', 'aria-label': 'Body, pretty' }, prettyJson(d.body)),
    h('details', {}, h('summary', {}, `Exact bytes sent (${new TextEncoder().encode(d.body).length} bytes)`), h('pre', { class: 'raw' }, d.body)),
    d.curl ? h('details', {}, h('summary', {}, 'curl command'), curl) : null,
  );
}
