// The extension point of the page: each data source of the inspector is a view with a tab.
// The deliveries view is one; `hookgate listen` adds "inbound requests" as another (see README.md).

export interface View {
  /** The feed name on the server (`/_hookgate/ui/api/<feed>`, SSE event `<feed>`) and the hash prefix (`#/<feed>/…`). */
  feed: string;
  /** The tab's label. */
  label: string;
  /** Builds the view into its container (once). */
  mount(container: HTMLElement): void;
  /** Shows the item of `#/<feed>/<id>` (or nothing, for `#/<feed>`). */
  route(rest: string[]): void;
}

const views: View[] = [];

export function registerView(view: View): void {
  views.push(view);
}

export function registeredViews(): readonly View[] {
  return views;
}
