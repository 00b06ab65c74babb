/**
 * A JSON answer of the inspector's API.
 *
 * @example
 * const answer: FeedAnswer = { status: 200, body: { items: [] } };
 */
export interface FeedAnswer {
  status: number;
  body: unknown;
}

/**
 * One data source of the inspector (the extension point): the deliveries the emulator sends are one;
 * a later `hookgate listen` adds "inbound" requests as another. The inspector serves, for a feed named
 * `name`: `GET /_hookgate/ui/api/<name>` (its list), `GET /_hookgate/ui/api/<name>/<id>` (one item),
 * and SSE events named `<name>` on `/_hookgate/events` whose data is `{ changed: [row, ...] }` (or
 * `{ reset: true }` when too many changed at once). Everything a feed returns is sent to the page as
 * is: a feed masks its own secrets.
 *
 * @example
 * const feed: InspectorFeed = { name: 'inbound', list, detail, watch, row };
 */
export interface InspectorFeed {
  /** The URL segment and SSE event name; `[a-z]+`. */
  readonly name: string;
  /** The list for a query string (filters, cursor). */
  list(params: URLSearchParams): FeedAnswer;
  /** One item by id. */
  detail(id: string): FeedAnswer;
  /** Calls `onChange(id)` whenever an item is added or changes; returns the unsubscribe function. */
  watch(onChange: (id: string) => void): () => void;
  /** The current row of an item (as in the list), or undefined when it is gone. */
  row(id: string): unknown;
}
