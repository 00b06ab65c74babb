// A subscription's `subscribe` condition: Segment's FQL, parsed by Segment's own code, and refused
// where that code would read it otherwise than written.
import { SettingsError } from '../errors.js';
import { segmentSubscriptions, type ParsedSubscribe } from './segment-code.js';

/** Tokens Segment's FQL parser takes as a condition's value when the value is missing (`type = ` reads as type = "eos"). */
const NOT_VALUES = new Set(['eos', '=', '!=', '>', '<', '>=', '<=', '(', ')', 'and', 'or', '!', ',']);

/**
 * A value Segment's parser read from the end of the text or from an operator (an incomplete condition,
 * `===`), unless the text quotes it: such a subscription parses without an error and never matches.
 */
function misreadValue(node: unknown, text: string): string | undefined {
  if (typeof node !== 'object' || node === null) return undefined;
  const n = node as { value?: unknown; operator?: unknown; children?: unknown };
  const unary = n.operator === 'exists' || n.operator === 'not_exists';
  if (!unary && typeof n.value === 'string' && NOT_VALUES.has(n.value) && !text.includes(JSON.stringify(n.value)))
    return n.value;
  if (Array.isArray(n.children))
    for (const child of n.children) {
      const found = misreadValue(child, text);
      if (found !== undefined) return found;
    }
  return undefined;
}

/**
 * FQL that Segment's parser reads without an error but not as written: a negated group (`!(…)` or
 * `not …`: the negation is dropped) or `and` and `or` at the same level (read as all `or`).
 */
function fqlQuirk(text: string): string | undefined {
  // Quoted strings out, then the words and parentheses that matter.
  const bare = text.replace(/"(?:[^"\\]|\\.)*"/g, '""');
  if (/!\s*\(/.test(bare) || /(^|[\s(])not\b/i.test(bare))
    return "Segment's FQL code ignores a negated group (!(…) or not …) and would match the opposite; use != or !contains(…) / !match(…)";
  const levels: Array<Set<string>> = [new Set()];
  for (const m of bare.matchAll(/\(|\)|\b(and|or)\b/gi)) {
    if (m[0] === '(') levels.push(new Set());
    else if (m[0] === ')') {
      if (levels.length > 1) levels.pop();
    } else {
      const level = levels[levels.length - 1] as Set<string>;
      level.add(m[0].toLowerCase());
      if (level.size > 1)
        return 'mixes and and or without parentheses, which Segment\'s FQL code reads as all or; group them, e.g. type = "track" and (event = "A" or event = "B")';
    }
  }
  return undefined;
}

/**
 * Parses a subscription's `subscribe` text with Segment's FQL parser; throws a `SettingsError` at
 * `path` when it does not parse, or parses to something other than what it says (a dropped negation,
 * `and` and `or` mixed at one level, a condition without a value).
 *
 * @example
 * resolveCondition('type = "track"', 'subscriptions[0].subscribe').condition; // Segment's parsed condition
 */
export function resolveCondition(subscribe: unknown, path: string): { text: string; condition: ParsedSubscribe } {
  if (typeof subscribe !== 'string' || subscribe.trim() === '')
    throw new SettingsError(
      path,
      'is required: a condition in Segment\'s FQL, e.g. type = "track" and event = "Order Completed"',
    );
  const condition = segmentSubscriptions().parseFql(subscribe);
  if (condition.error)
    throw new SettingsError(
      path,
      `${JSON.stringify(subscribe)} is not valid FQL (Segment's parser stopped on it); e.g. type = "track" and event = "Order Completed"`,
    );
  const quirk = fqlQuirk(subscribe);
  if (quirk !== undefined) throw new SettingsError(path, `${JSON.stringify(subscribe)}: ${quirk}`);
  const misread = misreadValue(condition, subscribe);
  if (misread !== undefined)
    throw new SettingsError(
      path,
      `${JSON.stringify(subscribe)} is not valid FQL: a condition has no value (Segment's parser reads ${JSON.stringify(misread)} as its value, so it would never match); e.g. type = "track" and event = "Order Completed"`,
    );
  return { text: subscribe, condition };
}
