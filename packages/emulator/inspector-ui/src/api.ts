// The inspector's HTTP API, as the page uses it. Actions carry the CSRF header the server requires.

export const CSRF_HEADER = 'x-hookgate-inspector';

export interface Summary {
  id: string;
  seq: number;
  receivedAt: string;
  source: string;
  origin: string;
  type: string;
  summary: string;
  userId?: string;
  state: 'pending' | 'delivered' | 'failed' | 'filtered';
  attempts: number;
  lastStatus?: number | string;
  /** What the last status means when its endpoint is not retried because another accepted (`not retried — endpoint 1 accepted`). */
  lastStatusNote?: string;
  replayOf?: string;
  /** For a filtered delivery: why it was never sent, in words. */
  filteredBecause?: string;
  /** A Webhooks (Actions) delivery: method, subscription and how many events its request holds. */
  actions?: {
    subscription: number;
    name?: string;
    subscribe: string;
    method: string;
    batchSize: number;
    batch: boolean;
  };
}

export interface AttemptView {
  endpoint: string;
  round: number;
  at: string;
  durationMs: number;
  status?: number;
  error?: { code: string; message: string };
  responseStart?: string;
  outcome: 'delivered' | 'retry' | 'fail' | 'not-retried';
  /** For a `not-retried` attempt: why (`endpoint 1 accepted`). */
  notRetriedBecause?: string;
}

/** Where a delivery stands at one endpoint: e.g. `not retried — endpoint 1 accepted` beside its last status 500. */
export interface EndpointStatus {
  endpoint: string;
  outcome?: 'delivered' | 'failed' | 'pending' | 'not-retried';
  lastStatus?: number | string;
  words: string;
}

export interface Detail extends Summary {
  body: string;
  headers: Record<string, string>;
  endpoints: string[];
  /** Where the delivery stands at each endpoint (absent from an older server). */
  endpointStatuses?: EndpointStatus[];
  attemptList: AttemptView[];
  firstAttemptAt?: string;
  nextAttemptAt?: string;
  windowEndsAt?: string;
  windowMs: number;
  now: string;
  reason?: string;
  deliveredTo?: string;
  curl: string;
  signed: boolean;
  /** False when the delivery is signed but its source no longer has a shared secret: Copy as curl refuses. */
  secretKnown?: boolean;
  /** The record that first took this call's messageId, when this one is a duplicate. */
  duplicateOf?: string;
  /** What the intake noticed about the call (a number JSON parsing changed). */
  /** What the source's tracking plan did (its message's context.protocols), when anything. */
  protocols?: {
    violations: { type: string; field: string; description: string }[];
    omitted: string[];
    omittedOnViolation: string[];
  };
  notes?: string[];
  /** The call's text as the client sent it, kept when there are notes. */
  rawCall?: string;
}

export interface ListPage {
  items: Summary[];
  next: number | null;
  scanned: number;
  endpoints: string[];
}

export interface Meta {
  feeds: string[];
  states: string[];
  types: string[];
  endpoints: string[];
  templates: Record<string, unknown>;
  now: string;
  /** The sources: name and write key (masked), for the empty list's help. */
  sources?: Array<{ name: string | null; writeKey: string; webhooks: boolean }>;
}

export interface Issue {
  path: string;
  message: string;
}

/** An error answer of the API, with its message and, for validation, its issues. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly issues: Issue[] = [],
  ) {
    super(message);
  }
}

async function parse<T>(res: Response): Promise<T> {
  const body = (await res.json().catch(() => ({}))) as { error?: string; issues?: Issue[] };
  if (!res.ok) throw new ApiError(res.status, body.error ?? `HTTP ${res.status}`, body.issues ?? []);
  return body as T;
}

export async function getJson<T>(path: string, params?: URLSearchParams): Promise<T> {
  const q = params && [...params.keys()].length > 0 ? `?${params}` : '';
  return parse<T>(await fetch(`${path}${q}`, { headers: { accept: 'application/json' }, credentials: 'same-origin' }));
}

export async function postJson<T>(path: string, body: unknown = {}): Promise<T> {
  return parse<T>(
    await fetch(path, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', accept: 'application/json', [CSRF_HEADER]: '1' },
      body: JSON.stringify(body),
    }),
  );
}
