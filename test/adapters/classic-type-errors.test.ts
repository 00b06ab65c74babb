// A classic receiver's type errors name the classic types, an Actions receiver's the Actions types:
// `createReceiver` and the Express and Hono `hookgate()` take one parameter typed by the `destination`
// given (`ReceiverOptionsFor`). With a union or overloads of both destinations, a mistake in a classic
// `on` was reported against `SpecEventHandler<"track">`, Segment's Actions types.
//
// Two checks: the `@ts-expect-error` lines below (by `tsc -p tsconfig.json`), and the compiler run on
// bad snippets as a user writes them, reading the message text the user sees.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { createReceiver, type TrackMessage } from '@hookgate/core';
import { hookgate as expressHookgate } from '@hookgate/express';
import { hookgate as honoHookgate } from '@hookgate/hono';

const root = fileURLToPath(new URL('../..', import.meta.url));
const secret = 'whsec_types';

describe('a classic receiver in the type checker', () => {
  it('types its handlers with the classic messages, and refuses a wrong handler', () => {
    createReceiver({ secret, on: { track: (msg) => expectTypeOf(msg).toEqualTypeOf<TrackMessage>() } });
    expressHookgate({ secret, on: { track: (msg) => expectTypeOf(msg).toEqualTypeOf<TrackMessage>() } });
    honoHookgate({ secret, on: { track: (msg) => expectTypeOf(msg).toEqualTypeOf<TrackMessage>() } });
    // Type checks only: the run-time checks would refuse these options too.
    const mistakes = () => {
      // @ts-expect-error a classic track message has no `foo`
      createReceiver({ secret, on: { track: (msg: { foo: number }) => msg.foo } });
      // @ts-expect-error a classic track message has no `foo`
      expressHookgate({ secret, on: { track: (msg: { foo: number }) => msg.foo } });
      // @ts-expect-error a classic track message has no `foo`
      honoHookgate({ secret, on: { track: (msg: { foo: number }) => msg.foo } });
      // @ts-expect-error onMessage is not an option of the Actions destination
      createReceiver({ destination: 'actions', secret, onMessage: () => {} });
    };
    void mistakes;
  });
});

/** The compiler's messages for `code`, checked as a module of the workspace (the root tsconfig's paths). */
function diagnosticsOf(snippets: Record<string, string>): Record<string, string> {
  const dir = mkdtempSync(`${root}.hookgate-tmp-type-errors-`);
  try {
    const files = Object.entries(snippets).map(([name, code]) => {
      const file = `${dir}/${name}.ts`;
      writeFileSync(file, code);
      return { name, file };
    });
    const config = ts.getParsedCommandLineOfConfigFile(
      `${root}tsconfig.json`,
      {},
      { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
    );
    if (!config) throw new Error('cannot read tsconfig.json');
    const program = ts.createProgram(
      files.map((f) => f.file),
      { ...config.options, noEmit: true, noUnusedLocals: false },
    );
    const out: Record<string, string> = {};
    for (const { name, file } of files) {
      out[name] = ts
        .getPreEmitDiagnostics(program, program.getSourceFile(file))
        .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))
        .join('\n');
    }
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the message tsc prints for a mistake in a handler', () => {
  const WRONG_HANDLER = '(msg: { foo: number }) => msg.foo';
  const CALLS = {
    core: `import { createReceiver } from '@hookgate/core';\ncreateReceiver({ secret: 's', %OPTIONS% });`,
    express: `import { hookgate } from '@hookgate/express';\nhookgate({ secret: 's', %OPTIONS% });`,
    hono: `import { hookgate } from '@hookgate/hono';\nhookgate({ secret: 's', %OPTIONS% });`,
  };

  it('names the classic types for a classic receiver and the Actions types for an Actions one', () => {
    const snippets: Record<string, string> = {};
    for (const [entry, call] of Object.entries(CALLS)) {
      snippets[`${entry}-classic`] = call.replace('%OPTIONS%', `on: { track: ${WRONG_HANDLER} }`);
      snippets[`${entry}-classic-typo`] = call.replace('%OPTIONS%', `on: { trak: () => {} }`);
      snippets[`${entry}-actions`] = call.replace(
        '%OPTIONS%',
        `destination: 'actions', on: { track: ${WRONG_HANDLER} }`,
      );
    }
    const messages = diagnosticsOf(snippets);
    for (const entry of Object.keys(CALLS)) {
      const classic = messages[`${entry}-classic`]!;
      expect(classic, entry).toMatch(/MessageHandler</);
      expect(classic, entry).not.toMatch(/SpecEventHandler|SpecTrackEvent|ActionsReceiverOptions|overload/i);
      const typo = messages[`${entry}-classic-typo`]!;
      // The classic handlers' type (flattened with the tracking plan's keyed `track`), named by its handlers.
      expect(typo, entry).toMatch(
        /'trak' does not exist in type '.*MessageHandler<.*'\. Did you mean to write 'track'\?/,
      );
      expect(typo, entry).not.toMatch(/SpecEventHandlers/);
      const actions = messages[`${entry}-actions`]!;
      // With a tracking plan's keyed handlers, the Actions `on.track` reads PlanMessageHandler<SpecTrackEvent, ActionsHandlerContext>.
      expect(actions, entry).toMatch(/SpecTrackEvent|SpecEventHandler<"track"/);
      expect(actions, entry).not.toMatch(/MessageContext|TrackMessage|userId: string/);
    }
  }, 120_000);
});
