// Calls that clients send (seed §2.3) and the integrations object (seed §4.3).
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../src/index.js';
import { CALL_TYPES, WEBHOOKS_DESTINATION, callIssues, isDestinationEnabled, parseCall } from '../src/calls.js';

const paths = (value: unknown, options?: Parameters<typeof callIssues>[1]) =>
  callIssues(value, options).map((i) => i.path);

describe('callIssues: the required-field rules of seed §2.3', () => {
  it('knows the six call types', () => {
    expect([...CALL_TYPES].sort()).toEqual(['alias', 'group', 'identify', 'page', 'screen', 'track']);
  });

  it.each(['identify', 'track', 'group', 'page', 'screen'] as const)('%s needs userId or anonymousId', (type) => {
    const base = { type, event: 'E', groupId: 'g' };
    expect(callIssues(base)).toEqual([{ path: '$.userId', message: 'userId or anonymousId is required' }]);
    expect(callIssues({ ...base, userId: '' })).toEqual([
      { path: '$.userId', message: 'userId or anonymousId is required' },
    ]);
    expect(callIssues({ ...base, userId: 'u1' })).toEqual([]);
    expect(callIssues({ ...base, anonymousId: 'a1' })).toEqual([]);
  });

  it('track needs event; group needs groupId', () => {
    expect(callIssues({ type: 'track', userId: 'u1' })).toEqual([{ path: '$.event', message: 'is required' }]);
    expect(callIssues({ type: 'group', userId: 'u1' })).toEqual([{ path: '$.groupId', message: 'is required' }]);
    expect(paths({ type: 'track' }).sort()).toEqual(['$.event', '$.userId']);
  });

  it('alias needs userId (the new id) and previousId; anonymousId does not stand in', () => {
    expect(paths({ type: 'alias', previousId: 'old' })).toEqual(['$.userId']);
    expect(callIssues({ type: 'alias', previousId: 'old', anonymousId: 'a' })[0]!.message).toContain('new identifier');
    expect(paths({ type: 'alias', userId: 'new' })).toEqual(['$.previousId']);
    expect(callIssues({ type: 'alias', userId: 'new', previousId: 'old' })).toEqual([]);
  });

  it('checks the kinds of the shared fields', () => {
    const call = {
      type: 'identify',
      userId: 5,
      anonymousId: 'a',
      timestamp: 'yesterday',
      context: [],
      integrations: 'all',
      traits: 1,
    };
    expect(paths(call).sort()).toEqual(['$.context', '$.integrations', '$.timestamp', '$.traits', '$.userId']);
  });

  it('accepts Go’s timestamps and keeps unknown fields', () => {
    const call = {
      type: 'track',
      userId: 'u',
      event: 'E',
      timestamp: '2009-11-10T23:00:00+0000',
      messageId: 'm',
      custom: { a: 1 },
    };
    expect(callIssues(call)).toEqual([]);
    expect(parseCall(call)).toEqual(call);
  });

  it('takes the type from the options when the call has none, and prefixes paths', () => {
    expect(callIssues({ userId: 'u' }, { type: 'track' })).toEqual([{ path: '$.event', message: 'is required' }]);
    expect(paths({ userId: 'u' }, { type: 'track', path: '$.batch[3]' })).toEqual(['$.batch[3].event']);
    expect(paths({}, { path: '$.batch[0]' })).toEqual(['$.batch[0].type']);
  });

  it('names a bad type and a non-object', () => {
    expect(callIssues({ type: 'Track', userId: 'u' })).toEqual([
      { path: '$.type', message: 'must be one of identify, track, page, screen, group, alias (got string "Track")' },
    ]);
    expect(callIssues(null)).toEqual([{ path: '$', message: 'must be a JSON object (got null)' }]);
    expect(callIssues([1], { path: '$.batch[1]' })).toEqual([
      { path: '$.batch[1]', message: 'must be a JSON object (got an array)' },
    ]);
    expect(callIssues({ type: 10n })[0]!.message).toContain('a bigint');
  });
});

describe('parseCall', () => {
  it('returns the call with its type filled in from the options', () => {
    const call = parseCall({ userId: 'u1', groupId: 'g1', traits: { n: 1 } }, { type: 'group' });
    expect(call).toEqual({ type: 'group', userId: 'u1', groupId: 'g1', traits: { n: 1 } });
  });

  it('throws a ValidationError naming every problem', () => {
    let error: unknown;
    try {
      parseCall({ type: 'track', timestamp: 3 });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).message).toMatch(/^Invalid call: /);
    expect((error as ValidationError).issues.map((i) => i.path).sort()).toEqual(['$.event', '$.timestamp', '$.userId']);
  });
});

describe('isDestinationEnabled (seed §4.3)', () => {
  // [integrations, expected for "Webhooks"]
  const table: Array<[unknown, boolean, string]> = [
    [undefined, true, 'no integrations object: every destination is on'],
    [null, true, 'null: on'],
    [{}, true, 'empty: on'],
    [{ All: true }, true, 'All true: on'],
    [{ All: false }, false, 'All false: off'],
    [{ All: false, Webhooks: true }, true, 'All false but Webhooks true: on'],
    [{ All: false, Webhooks: { url: 'x' } }, true, 'a settings object counts as on'],
    [{ All: false, webhooks: true }, false, 'keys are case sensitive: webhooks is another destination'],
    [{ All: false, WEBHOOKS: true }, false, 'WEBHOOKS is another destination'],
    [{ All: false, Mixpanel: true }, false, 'another destination’s true does not turn this one on'],
    [{ Webhooks: false }, false, 'Webhooks false: off'],
    [{ All: true, Webhooks: false }, false, 'its own false wins over All true'],
    [{ webhooks: false }, true, 'a lowercase key does not turn Webhooks off'],
    [{ Mixpanel: false }, true, 'another destination off leaves this one on'],
  ];

  it.each(table)('%j → %s (%s)', (integrations, expected) => {
    expect(isDestinationEnabled(integrations)).toBe(expected);
    expect(isDestinationEnabled(integrations, WEBHOOKS_DESTINATION)).toBe(expected);
  });

  it('works for any destination name', () => {
    expect(WEBHOOKS_DESTINATION).toBe('Webhooks');
    expect(isDestinationEnabled({ All: false, Mixpanel: true }, 'Mixpanel')).toBe(true);
    expect(isDestinationEnabled({ All: false, Mixpanel: true }, 'mixpanel')).toBe(false);
  });
});
