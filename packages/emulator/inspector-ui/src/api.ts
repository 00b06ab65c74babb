// The inspector's HTTP API, as the page uses it. Actions carry the CSRF header the server requires. The
// shapes of its answers are the server's, in src/inspector/wire-types.ts (types only: nothing of it is bundled).

import type { ApiErrorBody, ApiIssue, CsrfHeaderName } from '../../src/inspector/wire-types.js';

export const CSRF_HEADER: CsrfHeaderName = 'x-hookgate-inspector';

/** An error answer of the API, with its message and, for validation, its issues. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly issues: ApiIssue[] = [],
  ) {
    super(message);
  }
}

async function parse<T>(res: Response): Promise<T> {
  const body = (await res.json().catch(() => ({}))) as Partial<ApiErrorBody>;
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
