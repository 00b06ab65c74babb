// Which rule of a tracking plan a message is checked against, as Segment's Protocols matches them.

/** Per rule type, per key (`''` for none): the versions of a rule and the one checked when a message names none (internal). */
export type RuleLookup<R> = Map<string, Map<string, { picked: R; versions: Map<number, R> }>>;

/**
 * Whether a value is a plain object (internal).
 *
 * @example
 * isObject({}); // true
 * isObject([]); // false
 */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `context.protocols.event_version`, Segment's way for a call to name the version it follows. */
function eventVersion(message: Record<string, unknown>): number | undefined {
  const context = message.context;
  const protocols = isObject(context) ? context.protocols : undefined;
  const version = isObject(protocols) ? protocols.event_version : undefined;
  return Number.isInteger(version) ? (version as number) : undefined;
}

function pick<R>(lookup: RuleLookup<R>, type: string, key: string, message: Record<string, unknown>): R | undefined {
  const entry = lookup.get(type)?.get(key);
  if (!entry) return undefined;
  // A version the plan does not have is checked against the default one, as Segment does.
  const named = eventVersion(message);
  return (named !== undefined ? entry.versions.get(named) : undefined) ?? entry.picked;
}

/**
 * The rule a message is checked against (internal), as Segment's Protocols matches them: a track call
 * by its event name; identify and group by the IDENTIFY and GROUP rules; page and screen calls as
 * Segment shows them, the events "Page Viewed" and "Screen Viewed": the plan's PAGE (SCREEN) rule, else
 * the TRACK rule of that name. Never by a page's name: the Webhooks page message carries none, so a
 * receiver and the emulator could not agree (a specific page is checked inside the rule's JSON Schema).
 * Alias and delete have no rule of their own.
 *
 * @example
 * findRule(lookup, { type: 'page', name: 'Pricing' }); // the PAGE rule, else TRACK "Page Viewed"
 */
export function findRule<R>(lookup: RuleLookup<R>, message: unknown): R | undefined {
  if (!isObject(message)) return undefined;
  switch (message.type) {
    case 'track':
      return typeof message.event === 'string' ? pick(lookup, 'TRACK', message.event, message) : undefined;
    case 'identify':
      return pick(lookup, 'IDENTIFY', '', message);
    case 'group':
      return pick(lookup, 'GROUP', '', message);
    case 'page':
      return pick(lookup, 'PAGE', '', message) ?? pick(lookup, 'TRACK', 'Page Viewed', message);
    case 'screen':
      return pick(lookup, 'SCREEN', '', message) ?? pick(lookup, 'TRACK', 'Screen Viewed', message);
    default:
      return undefined;
  }
}
