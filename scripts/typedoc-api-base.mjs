// A TypeDoc plugin (typedoc.json's `plugin`): the API reference's front page, docs/public/api/index.html,
// gets `<base href="/api/">`. Its links to the stylesheet, the scripts and the other pages are relative
// (`assets/style.css`): a static server that answers `/api` (no trailing slash) with that page without
// redirecting to `/api/` (VitePress's own `vitepress preview`, many CDNs) would make the browser look for
// them under `/`, and the page would lose its styles. Pages below it are only reached by their full path.
import { JSX } from 'typedoc';

/** Where the site serves the API reference (VitePress's `base` is `/`; TypeDoc's `out` is docs/public/api). */
const API_PATH = '/api/';

/** @param {import('typedoc').Application} app */
export function load(app) {
  app.renderer.hooks.on('head.begin', (context) =>
    context.page.url === 'index.html'
      ? JSX.createElement('base', { href: API_PATH })
      : JSX.createElement(JSX.Fragment, null),
  );
}
