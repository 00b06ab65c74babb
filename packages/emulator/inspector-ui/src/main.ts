// The inspector page: loads the metadata, mounts each view under its tab, routes the hash, goes live.

import { getJson } from './api.js';
import type { InspectorMeta } from '../../src/inspector/wire-types.js';
import { deliveriesView } from './deliveries-view.js';
import { byId, h, replaceChildren } from './dom.js';
import { inboundView } from './inbound-view.js';
import { connect } from './live.js';
import { registeredViews, registerView, type View } from './views.js';

async function start(): Promise<void> {
  const app = byId('app');
  let meta: InspectorMeta;
  try {
    meta = await getJson<InspectorMeta>('/_hookgate/ui/api/meta');
  } catch (error) {
    replaceChildren(
      app,
      h('p', { class: 'error', role: 'alert' }, `The inspector could not start: ${(error as Error).message}`),
    );
    return;
  }
  registerView(deliveriesView(meta));
  registerView(inboundView());
  const views = registeredViews().filter((v) => meta.feeds.includes(v.feed));
  const nav = byId('views');
  const containers = new Map<string, HTMLElement>();
  replaceChildren(app);
  for (const v of views) {
    const section = h('section', { id: `view-${v.feed}`, class: 'view', 'aria-label': v.label });
    containers.set(v.feed, section);
    app.append(section);
    nav.append(h('a', { href: `#/${v.feed}`, class: 'tab', 'data-feed': v.feed }, v.label));
    v.mount(section);
  }
  const route = () => {
    const [feed, ...rest] = location.hash.replace(/^#\/?/, '').split('/');
    const current: View | undefined = views.find((v) => v.feed === feed) ?? views[0];
    if (!current) return;
    for (const [name, el] of containers) el.hidden = name !== current.feed;
    for (const tab of nav.querySelectorAll<HTMLElement>('.tab')) {
      if (tab.dataset.feed === current.feed) tab.setAttribute('aria-current', 'page');
      else tab.removeAttribute('aria-current');
    }
    let parts: string[];
    try {
      parts = rest.filter(Boolean).map(decodeURIComponent);
    } catch {
      parts = [];
    }
    current.route(parts);
  };
  window.addEventListener('hashchange', route);
  route();
  connect(byId('live'), byId('server-gone'));
}

void start();
