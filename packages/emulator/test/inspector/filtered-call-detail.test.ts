// A call filtered because no message can be built from it (only an anonymousId): the inspector keeps
// the call as the client sent it, names it by its event in the list, and says why — in the library's
// words in-process, and in serve's flags when `hookgate serve` runs the inspector.
import { afterEach, describe, expect, it } from 'vitest';
import { createEmulator, listenIntake } from '../../src/index.js';
import { postCall, requireBuiltCli, startServe, type ServeProcess } from '../helpers/cli-process.js';

const WRITE_KEY = 'wk_filtered_detail';
const CALL = { anonymousId: 'anon-7', event: 'Anonymous Checkout', properties: { total: 12 } };

async function detailOf(base: string, summary: string): Promise<Record<string, unknown>> {
  const list = (await (await fetch(`${base}/_hookgate/ui/api/deliveries`)).json()) as {
    items: { id: string; summary: string }[];
  };
  const row = list.items.find((r) => r.summary === summary);
  expect(row, `a row named ${summary} in ${JSON.stringify(list.items)}`).toBeDefined();
  return (await (await fetch(`${base}/_hookgate/ui/api/deliveries/${row!.id}`)).json()) as Record<string, unknown>;
}

let serve: ServeProcess | undefined;
afterEach(async () => {
  serve?.child.kill('SIGTERM');
  await serve?.exited;
  serve = undefined;
});

describe('a call no message can be built from, in the inspector', () => {
  it("keeps the call as sent, lists it by its event, and says why in the library's words", async () => {
    const emulator = createEmulator({
      sources: [{ writeKey: WRITE_KEY, webhooks: { enabled: true, endpoints: [{ url: 'http://127.0.0.1:9/hooks' }] } }],
    });
    const intake = await listenIntake(emulator, { port: 0 });
    try {
      expect((await postCall(intake.url, '/v1/track', WRITE_KEY, CALL)).status).toBe(200);
      const detail = await detailOf(intake.url, 'Anonymous Checkout');
      expect(detail.state).toBe('filtered');
      expect(JSON.parse(detail.rawCall as string)).toEqual(CALL);
      expect(detail.reason).toMatch(/no userId/);
      expect(detail.reason).toContain("anonymousCalls: 'anonymousId-as-userId'");
    } finally {
      await intake.close();
      await emulator.close();
    }
  });

  it('under hookgate serve, the reason names the --anonymous-calls flag, not the library option', async () => {
    requireBuiltCli();
    serve = startServe(['--endpoint', 'http://127.0.0.1:9/hooks', '--write-key', WRITE_KEY]);
    const url = (await serve.waitFor(/intake listening on (http:\/\/\S+)/))[1]!;
    expect((await postCall(url, '/v1/track', WRITE_KEY, CALL)).status).toBe(200);
    const detail = await detailOf(url, 'Anonymous Checkout');
    expect(JSON.parse(detail.rawCall as string)).toEqual(CALL);
    expect(detail.reason).toContain('--anonymous-calls anonymousId-as-userId');
    expect(JSON.stringify(detail)).not.toContain('anonymousCalls');
  });
});
