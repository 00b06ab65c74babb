import { isBatchStandIn } from '../actions/batch-stand-in.js';
import { redactSignature, redactUrl } from '../debug-log.js';
import { redactHeaders, redactWriteKey } from '../redact.js';
import { endpointStatuses, lastStatusNote } from './endpoint-status-view.js';
import { protocolsView } from './protocols-view.js';
import type { DeliveryRecord } from '../log/delivery-record.js';
import type { InspectorEngine } from './inspector-engine.js';
import type { DeliveryDetail, DeliverySummary } from './wire-types.js';

/**
 * Masks for one engine: endpoint URLs as `redactUrl` shows them (password and query hidden), and each
 * source's endpoints (read again from `engine.sources` at most once per second: sources can change).
 */
export class ViewMasks {
  readonly #engine: InspectorEngine;
  readonly #wording: (reason: string) => string;
  #readAt = -Infinity;
  #urls = new Map<string, string>();
  #bySource = new Map<string, string[]>();

  constructor(engine: InspectorEngine, wording: (reason: string) => string = (reason) => reason) {
    this.#engine = engine;
    this.#wording = wording;
  }

  /** A record's reason as the page shows it: URLs masked, worded for where the emulator runs (serve's flags). */
  reason(text: string): string {
    return this.#wording(this.scrub(text));
  }

  #refresh(): void {
    const now = Date.now();
    if (now - this.#readAt < 1000) return;
    this.#readAt = now;
    const sources = this.#engine.sources;
    this.#bySource = new Map();
    for (const s of sources)
      this.#bySource.set(
        s.writeKey,
        (s.webhooks?.endpoints ?? []).map((e) => e.url),
      );
  }

  /** Whether a source has a classic shared secret now (read fresh: a detail must not trust a second-old view). */
  hasSecretNow(writeKey: string): boolean {
    return this.#engine.sources.some((s) => s.writeKey === writeKey && s.webhooks?.signed === true);
  }

  /** An endpoint URL fit for the page. */
  url(raw: string): string {
    let shown = this.#urls.get(raw);
    if (shown === undefined) {
      try {
        shown = redactUrl(new URL(raw));
      } catch {
        shown = '(unparsable URL)';
      }
      if (this.#urls.size > 1000) this.#urls.clear();
      this.#urls.set(raw, shown);
    }
    return shown;
  }

  /** The raw endpoint URLs of a source. */
  endpointsOf(writeKey: string): readonly string[] {
    this.#refresh();
    return this.#bySource.get(writeKey) ?? [];
  }

  /** The raw URLs of every source's endpoints that the page shows as `shown`. */
  rawUrlsShownAs(shown: string): Set<string> {
    this.#refresh();
    const out = new Set<string>();
    for (const urls of this.#bySource.values()) for (const u of urls) if (this.url(u) === shown) out.add(u);
    return out;
  }

  /** Every endpoint of every source, masked, without duplicates. */
  allEndpoints(): string[] {
    this.#refresh();
    return [...new Set([...this.#bySource.values()].flat().map((u) => this.url(u)))];
  }

  /** Replaces every raw endpoint URL of a text by its masked form (error messages may quote one). */
  scrub(text: string): string {
    this.#refresh();
    let out = text;
    for (const urls of this.#bySource.values())
      for (const u of urls) if (out.includes(u)) out = out.split(u).join(this.url(u));
    return out;
  }
}

function oneLine(text: string, max = 120): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** The event name, or a one-line summary of a message of another type. */
function summaryOf(type: string, m: Record<string, unknown> | undefined): string {
  if (!m) return '(no message)';
  const str = (v: unknown) => (typeof v === 'string' ? v : v === undefined ? '' : JSON.stringify(v));
  switch (type) {
    case 'track':
      return oneLine(str(m.event));
    case 'screen':
      return oneLine(`screen ${str(m.name)}`);
    case 'page': {
      const p = (m.properties ?? {}) as Record<string, unknown>;
      return oneLine(`page ${str(p.title ?? p.path ?? p.url ?? '')}`);
    }
    case 'identify':
      return oneLine(`traits: ${Object.keys(m.traits ?? {}).join(', ') || '(none)'}`);
    case 'group':
      return oneLine(`group ${str(m.groupId)}`);
    case 'alias':
      return oneLine(`${str(m['Previous ID'])} → ${str(m['User ID'])}`);
    case 'delete':
      return oneLine(`delete user ${str(m.userId)}`);
    default:
      return '';
  }
}

/**
 * A filtered call no message could be built from (no userId, say): its fields as the client sent
 * them, in the message's shape for `summaryOf` (alias: `previousId`/`userId` as "Previous ID"/"User ID").
 */
function calledAs(record: DeliveryRecord): Record<string, unknown> | undefined {
  if (record.state !== 'filtered' || record.body.length > 0) return undefined;
  const raw = record.rawCall;
  if (raw === undefined) return undefined;
  try {
    const call = JSON.parse(raw) as unknown;
    if (typeof call !== 'object' || call === null || Array.isArray(call)) return undefined;
    const c = call as Record<string, unknown>;
    return record.type === 'alias' ? { ...c, 'Previous ID': c.previousId, 'User ID': c.userId } : c;
  } catch {
    return undefined;
  }
}

function parseBody(record: DeliveryRecord): Record<string, unknown> | undefined {
  const body = record.body;
  if (body.length === 0) return undefined;
  try {
    return JSON.parse(body) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/**
 * A delivery's row for the page (the body is parsed, not cached on the record, so listing 100,000 rows
 * does not keep 100,000 parsed messages).
 *
 * @example
 * summarizeDelivery(emulator.get('dlv_1')!, new ViewMasks(emulator)).summary; // 'Signed Up'
 */
export function summarizeDelivery(
  record: DeliveryRecord,
  masks: ViewMasks,
  message = parseBody(record),
): DeliverySummary {
  const last = record.attempts[record.attempts.length - 1];
  const userId = message ? (message.userId ?? message['User ID']) : undefined;
  return {
    id: record.id,
    seq: record.seq,
    receivedAt: record.receivedAt,
    source: record.sourceName ?? `source ${redactWriteKey(record.writeKey)}`,
    origin: record.origin,
    type: record.type,
    summary: record.actions
      ? actionsSummary(record, message)
      : isBatchStandIn(record)
        ? 'batched (Webhooks (Actions))'
        : summaryOf(record.type, message ?? calledAs(record)),
    userId: typeof userId === 'string' ? userId : undefined,
    state: record.state,
    attempts: record.attempts.length,
    lastStatus: last ? (last.status ?? last.error?.code) : undefined,
    lastStatusNote: lastStatusNote(record),
    replayOf: record.replayOf,
    filteredBecause:
      record.state !== 'filtered'
        ? undefined
        : // A call whose event went out in a batch: its reason says where, nothing failed to build.
          isBatchStandIn(record)
          ? `${oneLine(masks.reason(record.reason ?? ''), 300)}.`
          : filteredWords(record.reason === undefined ? undefined : masks.reason(record.reason), message !== undefined),
    ...(record.actions ? { actions: record.actions } : {}),
  };
}

/** A Webhooks (Actions) record's one-line summary: a batch's size, a whole event as classic, else the mapped payload's keys. */
function actionsSummary(record: DeliveryRecord, m: Record<string, unknown> | undefined): string {
  const a = record.actions as NonNullable<DeliveryRecord['actions']>;
  if (a.batch) return `${a.method} batch of ${a.batchSize} (subscription ${a.subscription})`;
  if (m && typeof m.type === 'string' && typeof m.messageId === 'string')
    return `${a.method} ${summaryOf(record.type, m)}`;
  return oneLine(`${a.method} mapped payload: ${m ? Object.keys(m).join(', ') || '(empty)' : '(none)'}`);
}

/**
 * Why a filtered record was never sent, as a sentence: the routing rule or the intake's refusal, and
 * whether a message could be built from the call at all.
 *
 * @example
 * filteredWords('integrations: Webhooks is false', true); // 'Not sent: integrations: Webhooks is false.'
 */
export function filteredWords(reason: string | undefined, built: boolean): string {
  const why = reason === undefined ? 'no reason was recorded' : oneLine(reason, 300).replace(/\.$/, '');
  return built ? `Not sent: ${why}.` : `Not sent, and no message could be built from the call: ${why}.`;
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * A curl command that sends a delivery's exact body again to an endpoint. The signature is computed
 * by the shell from `$HOOKGATE_SECRET` (openssl), so neither the secret nor a full signature is in it.
 *
 * @example
 * curlCommand('{"type":"track"}', 'http://127.0.0.1:3000/hook', { 'user-agent': 'Segment.io/1.0' }, true);
 */
export function curlCommand(body: string, url: string, headers: Record<string, string>, signed: boolean): string {
  // Without the secret, openssl would sign with an empty key and the receiver would answer 401 for a
  // reason the user cannot see: the command stops first, saying what to set.
  const lines = signed
    ? [`: "\${HOOKGATE_SECRET:?set HOOKGATE_SECRET to the shared secret of the source first (nothing was sent)}"`]
    : [];
  lines.push(`BODY=${shellQuote(body)}`);
  const parts = [`curl -sS -X POST ${shellQuote(url)}`];
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (lower === 'x-signature' || lower === 'content-length') continue;
    parts.push(`-H ${shellQuote(`${name}: ${value}`)}`);
  }
  if (signed) {
    parts.push(
      `-H "X-Signature: $(printf '%s' "$BODY" | openssl dgst -sha1 -hmac "$HOOKGATE_SECRET" | sed 's/^.*= //')"`,
    );
  }
  // Segment asks for gzip or deflate (Webhooks (Actions)); curl then has to decode the answer itself, or it prints compressed bytes.
  if (Object.keys(headers).some((name) => name.toLowerCase() === 'accept-encoding')) parts.push('--compressed');
  parts.push(`--data-binary "$BODY"`);
  lines.push(parts.join(' \\\n  '));
  return lines.join('\n');
}

/** The headers sent, masked by the emulator's one rule (`redactHeaders`: every endpoint header's value hidden). */
function headerView(record: DeliveryRecord): Record<string, string> {
  // A filtered record was never sent: there are no headers to show.
  if (record.state === 'filtered') return {};
  const sent = record.attempts[0]?.requestHeaders;
  if (sent) return redactHeaders(sent);
  const out: Record<string, string> = { 'Content-Type': 'application/json' };
  if (record.signature) out['X-Signature'] = redactSignature(record.signature);
  return out;
}

/**
 * A delivery's detail for the page: body, headers sent (masked), every attempt, the next retry and
 * the retry window's end, on the emulator's clock.
 *
 * @example
 * describeDelivery(record, masks, emulator.clock.now(), 4 * 3600_000).attemptList.length;
 */
export function describeDelivery(
  record: DeliveryRecord,
  masks: ViewMasks,
  nowMs: number,
  windowMs: number,
): DeliveryDetail {
  const message = parseBody(record);
  const headers = headerView(record);
  const rawEndpoints = masks.endpointsOf(record.writeKey);
  const endpoints = rawEndpoints.map((u) => masks.url(u));
  const firstMs = record.firstAttemptAt ? Date.parse(record.firstAttemptAt) : undefined;
  const curlUrl = endpoints[0] ?? 'http://127.0.0.1:3000/webhooks';
  return {
    ...summarizeDelivery(record, masks, message),
    body: record.body,
    headers,
    endpoints,
    endpointStatuses: endpointStatuses(record, endpoints, (u) => masks.url(u)),
    attemptList: record.attempts.map((a) => ({
      endpoint: masks.url(a.endpoint),
      round: a.round,
      at: a.at,
      durationMs: a.durationMs,
      status: a.status,
      error: a.error ? { code: a.error.code, message: masks.scrub(a.error.message) } : undefined,
      responseStart: a.responseBody === undefined ? undefined : a.responseBody.slice(0, 200),
      outcome: a.outcome,
      notRetriedBecause: a.notRetriedBecause,
    })),
    firstAttemptAt: record.firstAttemptAt,
    nextAttemptAt: record.nextAttemptAt,
    windowEndsAt:
      record.state === 'pending' && firstMs !== undefined ? new Date(firstMs + windowMs).toISOString() : undefined,
    windowMs,
    now: new Date(nowMs).toISOString(),
    reason: record.reason === undefined ? undefined : masks.reason(record.reason),
    deliveredTo: record.deliveredTo === undefined ? undefined : masks.url(record.deliveredTo),
    curl:
      record.body.length === 0
        ? ''
        : record.actions
          ? // A Webhooks (Actions) request: its own method and mapped URL; a batch's signature covers its first element only, which openssl over $BODY would not reproduce.
            curlCommand(
              record.body,
              record.attempts[0] ? masks.url(record.attempts[0].endpoint) : curlUrl,
              headers,
              record.signature !== undefined && !record.actions.batch,
            ).replace('curl -sS -X POST', `curl -sS -X ${record.actions.method}`)
          : curlCommand(record.body, curlUrl, headers, record.signature !== undefined),
    signed: record.signature !== undefined,
    secretKnown: record.signature === undefined || record.actions !== undefined || masks.hasSecretNow(record.writeKey),
    duplicateOf: record.duplicateOf,
    notes: record.notes,
    rawCall: record.rawCall,
    protocols: protocolsView(message),
  };
}
