// What an empty delivery list shows: where to send a first call (this server's tracking API), with
// the sources' write keys masked and a curl command and a client snippet to copy.

import type { InspectorMeta } from '../../src/inspector/wire-types.js';
import { h } from './dom.js';

function copyButton(label: string, text: () => string, status: HTMLElement): HTMLButtonElement {
  return h(
    'button',
    {
      type: 'button',
      class: 'copy',
      // eslint-disable-next-line @typescript-eslint/no-misused-promises -- the inspector's copy handler catches every failure itself; its promise never rejects
      onclick: async () => {
        try {
          await navigator.clipboard.writeText(text());
          status.textContent = `${label}: copied. Put your source's write key in WRITE_KEY first.`;
        } catch {
          status.textContent = 'The clipboard is not available here: select the text above and copy it.';
        }
      },
    },
    label,
  );
}

/** The help shown while the log holds no delivery at all (not when filters hide every row). */
export function emptyState(meta: InspectorMeta): HTMLElement {
  const origin = location.origin;
  const sources = meta.sources ?? [];
  const curl = [
    `curl -sS -u "$WRITE_KEY:" -H 'Content-Type: application/json' \\`,
    `  -d '{"userId":"user_1","event":"Hello from curl"}' \\`,
    `  ${origin}/v1/track`,
  ].join('\n');
  const client = [
    "import { Analytics } from '@segment/analytics-node';",
    '',
    `const analytics = new Analytics({ writeKey: process.env.WRITE_KEY, host: '${origin}' });`,
    "analytics.track({ userId: 'user_1', event: 'Hello from Node' });",
  ].join('\n');
  const status = h('p', { class: 'action-result', role: 'status', 'aria-live': 'polite' });
  return h(
    'section',
    { class: 'empty', 'aria-labelledby': 'empty-title' },
    h('h2', { id: 'empty-title' }, 'No delivery yet'),
    h('p', {}, "Send a call to this server's tracking API and its webhook deliveries appear here, live."),
    h(
      'dl',
      { class: 'facts' },
      h('dt', {}, 'Intake URL'),
      h('dd', {}, h('code', { class: 'intake-url' }, `${origin}/v1/`)),
    ),
    sources.length > 0
      ? h(
          'ul',
          { class: 'sources' },
          ...sources.map((s) =>
            h(
              'li',
              {},
              s.name ?? 'unnamed source',
              ' · write key ',
              h('code', { class: 'write-key' }, s.writeKey),
              s.webhooks ? null : h('span', { class: 'muted' }, ' · webhooks off'),
            ),
          ),
        )
      : null,
    h('h3', {}, 'With curl'),
    h('pre', { class: 'snippet snippet-curl', tabindex: '0', 'aria-label': 'curl command' }, curl),
    copyButton('Copy curl', () => curl, status),
    h('h3', {}, 'With a client'),
    h('pre', { class: 'snippet snippet-client', tabindex: '0', 'aria-label': 'client snippet' }, client),
    copyButton('Copy snippet', () => client, status),
    status,
  );
}
