// A source's tracking plan and Schema Configuration (Segment Protocols), as the emulator's settings take them.
import type { CompiledTrackingPlan } from '@hookgate/core';
import { compileTrackingPlan, TrackingPlanError } from '@hookgate/plans';
import { SettingsError } from '../errors.js';

/**
 * The controls of Segment's Schema Configuration for a source with a tracking plan, applied before
 * delivery. Every control is `forward` by default (nothing changes, violations are only reported).
 *
 * @example
 * const controls: SchemaControls = { unplannedEvents: 'block', unplannedProperties: 'omit', violations: 'omit' };
 */
export interface SchemaControls {
  /** Track events the plan does not name: delivered, or blocked (a filtered record). */
  unplannedEvents?: 'forward' | 'block';
  /** Properties the rule of a planned track, page or screen call does not list: kept, or removed (listed in `context.protocols.omitted`). */
  unplannedProperties?: 'forward' | 'omit';
  /** Traits the identify or group rule does not list: kept, or removed (listed in `context.protocols.omitted`). */
  unplannedTraits?: 'forward' | 'omit';
  /**
   * Messages breaking their rule or the COMMON rule: delivered with `context.protocols.violations`,
   * blocked (a filtered record naming the rule and path), or delivered without the offending
   * properties and traits (listed in `context.protocols.omitted_on_violation`).
   */
  violations?: 'forward' | 'block' | 'omit';
  /**
   * The write key of another source of this emulator that blocked events are sent to instead of being
   * dropped (Segment's "forward blocked events to a source"): the blocked call is accepted by that source
   * as it was sent, and the blocked record's reason names where it went. An event forwarded is not
   * forwarded again.
   */
  forwardBlockedTo?: string;
}

/** The controls with a choice of values (every one but `forwardBlockedTo`). */
type ChoiceControls = Omit<SchemaControls, 'forwardBlockedTo'>;

/**
 * A source's plan and controls, resolved: the plan compiled and every control with a choice given
 * its value (what `applySchemaControls` takes).
 *
 * @example
 * const protocols: ResolvedProtocols = {
 *   plan: compileTrackingPlan(planJson),
 *   controls: { unplannedEvents: 'block', unplannedProperties: 'forward', unplannedTraits: 'forward', violations: 'forward' },
 * };
 */
export interface ResolvedProtocols {
  readonly plan: CompiledTrackingPlan<unknown>;
  readonly controls: Required<Omit<SchemaControls, 'forwardBlockedTo'>> & { readonly forwardBlockedTo?: string };
}

const CHOICES: { readonly [K in keyof ChoiceControls]-?: readonly string[] } = {
  unplannedEvents: ['forward', 'block'],
  unplannedProperties: ['forward', 'omit'],
  unplannedTraits: ['forward', 'omit'],
  violations: ['forward', 'block', 'omit'],
};

/**
 * Resolves a source's `trackingPlan` and `schemaControls` settings, or `undefined` without a plan;
 * throws a `SettingsError` naming the setting (a malformed plan: its rule and path; an unknown control
 * or value: the valid ones).
 *
 * @example
 * resolveProtocols(plan, { unplannedEvents: 'block', forwardBlockedTo: 'wk_quarantine' }, 'sources[0]', 'wk');
 */
export function resolveProtocols(
  plan: unknown,
  controls: unknown,
  path: string,
  writeKey?: string,
): ResolvedProtocols | undefined {
  if (plan === undefined) {
    if (controls !== undefined) {
      throw new SettingsError(`${path}.schemaControls`, 'apply to a tracking plan: set trackingPlan too');
    }
    return undefined;
  }
  let compiled: CompiledTrackingPlan<unknown>;
  try {
    compiled = compileTrackingPlan(plan);
  } catch (error) {
    if (error instanceof TrackingPlanError) {
      throw new SettingsError(`${path}.trackingPlan${error.path ? `.${error.path}` : ''}`, error.message);
    }
    throw error;
  }
  const resolved: ResolvedProtocols['controls'] = {
    unplannedEvents: 'forward',
    unplannedProperties: 'forward',
    unplannedTraits: 'forward',
    violations: 'forward',
  };
  if (controls !== undefined) {
    const cp = `${path}.schemaControls`;
    if (typeof controls !== 'object' || controls === null || Array.isArray(controls)) {
      throw new SettingsError(
        cp,
        'must be an object { unplannedEvents?, unplannedProperties?, unplannedTraits?, violations?, forwardBlockedTo? }',
      );
    }
    for (const [name, value] of Object.entries(controls)) {
      if (name === 'forwardBlockedTo') {
        if (value === undefined) continue;
        if (typeof value !== 'string' || value.length === 0) {
          throw new SettingsError(`${cp}.${name}`, `must be the write key of another source (got ${typeof value})`);
        }
        if (value === writeKey) {
          throw new SettingsError(`${cp}.${name}`, "is this source's own write key: name another source");
        }
        (resolved as { forwardBlockedTo?: string }).forwardBlockedTo = value;
        continue;
      }
      const allowed = CHOICES[name as keyof ChoiceControls] as readonly string[] | undefined;
      if (allowed === undefined) {
        throw new SettingsError(
          `${cp}.${name}`,
          `unknown control (known: ${[...Object.keys(CHOICES), 'forwardBlockedTo'].join(', ')})`,
        );
      }
      if (value === undefined) continue;
      if (typeof value !== 'string' || !allowed.includes(value)) {
        throw new SettingsError(
          `${cp}.${name}`,
          `must be ${allowed.map((a) => `'${a}'`).join(' or ')} (got ${JSON.stringify(value)})`,
        );
      }
      (resolved as unknown as Record<string, string>)[name] = value;
    }
  }
  return Object.freeze({ plan: compiled, controls: Object.freeze(resolved) });
}
