// Building the page: every value is set with textContent or a DOM property, never parsed as HTML.

type Child = Node | string | number | null | undefined | false;
type Attrs = Record<string, string | number | boolean | undefined | ((event: Event) => void)>;

/** Creates an element; `on*` attributes given as functions become listeners; text children become text nodes. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') el.addEventListener(name.slice(2).toLowerCase(), value);
    else if (name === 'class') el.className = String(value);
    else el.setAttribute(name, value === true ? '' : String(value));
  }
  append(el, ...children);
  return el;
}

/** Appends children: strings and numbers as text nodes. */
export function append(parent: Node, ...children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    parent.appendChild(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
  }
}

/** Replaces every child of an element. */
export function replaceChildren(parent: Element, ...children: Child[]): void {
  while (parent.firstChild) parent.removeChild(parent.firstChild);
  append(parent, ...children);
}

/**
 * Runs a re-render of rows inside `scope` and, when the focus was on a row's link, gives it back to the
 * same row's link afterwards: a live update must not throw a keyboard user back to the top of the page.
 * Rows are found by `data-id`; the focused element by its tag and class within the row.
 */
export function keepingFocus(scope: Element, rerender: () => void): void {
  const active = document.activeElement;
  if (!(active instanceof HTMLElement) || !scope.contains(active)) {
    rerender();
    return;
  }
  const id = active.closest<HTMLElement>('[data-id]')?.dataset.id;
  const classes = active.className.trim()
    ? `.${active.className
        .trim()
        .split(/\s+/)
        .map((c) => CSS.escape(c))
        .join('.')}`
    : '';
  const selector = `${active.tagName.toLowerCase()}${classes}`;
  rerender();
  if (id === undefined || (active.isConnected && document.activeElement === active)) return;
  for (const candidate of [scope, ...scope.querySelectorAll('[data-id]')]) {
    if (!(candidate instanceof HTMLElement) || candidate.dataset.id !== id) continue;
    const again = candidate === active ? candidate : candidate.querySelector<HTMLElement>(selector);
    again?.focus();
    return;
  }
}

/** Finds an element by id, or throws naming it. */
export function byId<T extends HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`#${id} is missing from the page`);
  return el as T;
}

/**
 * Text (a URL, or a message quoting one) that wraps at spaces and after the `/`, `?` and `&` of a URL
 * (a `<wbr>` there), never inside a part: a run with a `-` or `/` is kept whole per part (a browser
 * would otherwise break `destination-events` at its hyphen).
 */
export function breakable(text: string): DocumentFragment {
  const out = document.createDocumentFragment();
  for (const run of text.split(/(\s+)/)) {
    if (!/[-/]/.test(run)) {
      if (run) out.appendChild(document.createTextNode(run));
      continue;
    }
    run.split(/(?<=[/?&])(?=.)/).forEach((part, i) => {
      if (i > 0) out.appendChild(document.createElement('wbr'));
      out.appendChild(h('span', { class: 'part' }, part));
    });
  }
  return out;
}
