// The receivers every conformance target mounts, one per scenario, at `/webhooks/<scenario>`, and
// the recorder their handlers write to (served at `GET /_seen`). Runtime-neutral: the Bun, Deno and
// workerd targets import this file too (with the built packages), so it imports nothing but types.
import type { HandlerContext, ReceiverOptions, WebhookMessage } from '@hookgate/core';

/** Secrets of the conformance receivers (test values, not secrets of anything real). */
export const SECRETS = {
  main: 'whsec_conformance_main_5f0c1d',
  /** The previous secret of the `rotated` scenario (the current one is `main`). */
  previous: 'whsec_conformance_previous_77aa',
  /** A secret no receiver knows. */
  stranger: 'whsec_conformance_stranger_0000',
} as const;

/** Text a throwing handler puts in its error: the answer must carry neither it nor a stack. */
export const THROWN_TEXT = 'conformance-handler-exploded';

/** What a scenario's handler does. */
export type Behavior = 'record' | 'throw' | 'slow' | 'background';

/** One receiver configuration of the table. */
export interface Scenario {
  /** Receiver options (the secret and the settings under test). */
  options: Pick<ReceiverOptions, 'secret' | 'deadlineMs' | 'mode' | 'maxBodyBytes'>;
  behavior: Behavior;
  /** How long `slow` and `background` handlers work, in ms (a `slow` one stops early at the deadline). */
  workMs?: number;
}

/** Every scenario of the conformance table. */
export const SCENARIOS = {
  main: { options: { secret: SECRETS.main }, behavior: 'record' },
  throws: { options: { secret: SECRETS.main }, behavior: 'throw' },
  slow: { options: { secret: SECRETS.main, deadlineMs: 300 }, behavior: 'slow', workMs: 3_000 },
  /** The real default deadline (4 s), run once. */
  'default-deadline': { options: { secret: SECRETS.main }, behavior: 'slow', workMs: 7_000 },
  ack: { options: { secret: SECRETS.main, mode: 'acknowledge' }, behavior: 'background', workMs: 1_200 },
  rotated: { options: { secret: [SECRETS.main, SECRETS.previous] }, behavior: 'record' },
  small: { options: { secret: SECRETS.main, maxBodyBytes: 2_048 }, behavior: 'record' },
} as const satisfies Record<string, Scenario>;

/** A scenario's name, which is also its path segment. */
export type ScenarioName = keyof typeof SCENARIOS;

/** The names of every scenario, for mounting. */
export const SCENARIO_NAMES = Object.keys(SCENARIOS) as ScenarioName[];

/** Scenarios a pass-through target (route after the middleware) mounts with handlers instead. */
export const NEEDS_HANDLERS: ReadonlySet<ScenarioName> = new Set<ScenarioName>(['ack']);

/** One thing a handler did: started, finished, or stopped at the deadline. */
export interface SeenRecord {
  scenario: ScenarioName;
  /** `on.<type>` for a typed handler, `route` for a route behind a pass-through middleware. */
  via: string;
  phase: 'start' | 'end' | 'aborted';
  message: WebhookMessage;
  /** Which body form and secret index verified the message. */
  verification: HandlerContext['verification'];
}

/** What `GET /_seen` answers. */
export interface SeenReport {
  records: SeenRecord[];
  /** Messages of errors the receivers reported to `onError`. */
  errors: string[];
  /** Where the target runs: `node`, `bun` or `deno`, and whatever else the target reports (e.g. `resolved`). */
  info: Record<string, string>;
}

/** The runtime this code runs on. */
export function runtimeName(): 'bun' | 'deno' | 'node' {
  const g = globalThis as { Bun?: unknown; Deno?: unknown };
  return g.Bun !== undefined ? 'bun' : g.Deno !== undefined ? 'deno' : 'node';
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

/** Collects what handlers saw; one per target server. */
export class Recorder {
  readonly records: SeenRecord[] = [];
  readonly errors: string[] = [];

  /** `info` is reported at `/_seen` beside the runtime's name. */
  constructor(private readonly info: Record<string, string> = {}) {}

  /** The handler of a scenario; `via` names where it was called from. */
  handler(scenario: ScenarioName, via: string) {
    const spec: Scenario = SCENARIOS[scenario];
    return async (message: WebhookMessage, context: Pick<HandlerContext, 'signal' | 'verification'>): Promise<void> => {
      const note = (phase: SeenRecord['phase']): void => {
        this.records.push({ scenario, via, phase, message, verification: context.verification });
      };
      note('start');
      if (spec.behavior === 'throw') throw new Error(`${THROWN_TEXT} while handling ${message.type}`);
      if (spec.behavior === 'slow' || spec.behavior === 'background') {
        await sleep(spec.workMs ?? 1_000, spec.behavior === 'slow' ? context.signal : undefined);
        if (context.signal.aborted) {
          note('aborted');
          return;
        }
      }
      note('end');
    };
  }

  /** Typed handlers for every message type, each recording via `on.<type>`. */
  on(scenario: ScenarioName) {
    const h = (type: WebhookMessage['type']) => this.handler(scenario, `on.${type}`);
    return {
      page: h('page'),
      screen: h('screen'),
      identify: h('identify'),
      track: h('track'),
      alias: h('alias'),
      group: h('group'),
      delete: h('delete'),
    };
  }

  /** Receiver options of a scenario: its settings, silent error reporting into `errors`. */
  options(scenario: ScenarioName) {
    return {
      ...SCENARIOS[scenario].options,
      onError: (error: unknown) => {
        this.errors.push(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
      },
    };
  }

  /** The `GET /_seen` answer. */
  report(): SeenReport {
    return { records: this.records, errors: this.errors, info: { runtime: runtimeName(), ...this.info } };
  }
}
