// "Send test event": a type picker prefilled from core's fixtures, a JSON editor, the server's
// validation (core's validator) shown issue by issue with its JSON path.

import { ApiError, postJson } from './api.js';
import type { DeliverySummary, InspectorMeta } from '../../src/inspector/wire-types.js';
import { h, replaceChildren } from './dom.js';

/** Renders the form into `pane`; `onSent` gets the records created. */
export function showSendTest(
  pane: HTMLElement,
  meta: InspectorMeta,
  onSent: (records: DeliverySummary[]) => void,
): void {
  const types = Object.keys(meta.templates);
  const picker = h('select', { id: 'test-type', name: 'type' }, ...types.map((t) => h('option', { value: t }, t)));
  const editor = h('textarea', {
    id: 'test-json',
    name: 'message',
    rows: '18',
    spellcheck: 'false',
    'aria-describedby': 'test-issues',
  });
  const issues = h('ul', { id: 'test-issues', class: 'issues', 'aria-live': 'polite' });
  const result = h('p', { class: 'action-result', role: 'status', 'aria-live': 'polite' });
  const fill = () => {
    editor.value = JSON.stringify(meta.templates[picker.value], null, 2);
    replaceChildren(issues);
  };
  picker.addEventListener('change', fill);
  const form = h(
    'form',
    { class: 'send-test', 'aria-labelledby': 'send-test-title' },
    h('h2', { id: 'send-test-title', tabindex: '-1' }, 'Send test event'),
    h(
      'p',
      { class: 'muted' },
      'The message goes through the emulator like a received call: signed, to every endpoint, retried.',
    ),
    h('label', { for: 'test-type' }, 'Event type'),
    picker,
    h('label', { for: 'test-json' }, 'Message (JSON)'),
    editor,
    issues,
    h('button', { type: 'submit' }, 'Send'),
    result,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    replaceChildren(issues);
    result.textContent = '';
    let message: unknown;
    try {
      message = JSON.parse(editor.value);
    } catch (error) {
      issues.append(h('li', {}, h('code', {}, '$'), `: not JSON: ${(error as Error).message}`));
      return;
    }
    postJson<{ records: DeliverySummary[] }>('/_hookgate/send-test', { message }).then(
      (r) => {
        if (r.records.length === 0) result.textContent = 'No record was created (no source has seen this user).';
        else {
          const links = r.records.flatMap((x, i) => [
            i > 0 ? ', ' : '',
            h('a', { href: `#/deliveries/${x.id}`, class: 'record-link' }, x.id),
          ]);
          replaceChildren(result, 'Sent: ', ...links, '.');
        }
        onSent(r.records);
      },
      (error: unknown) => {
        if (error instanceof ApiError && error.issues.length > 0) {
          for (const i of error.issues)
            issues.append(h('li', {}, h('code', { class: 'path' }, i.path), `: ${i.message}`));
        } else result.textContent = `Not sent: ${(error as Error).message}`;
      },
    );
  });
  replaceChildren(pane, form);
  picker.value = types.includes('track') ? 'track' : (types[0] ?? '');
  fill();
}
