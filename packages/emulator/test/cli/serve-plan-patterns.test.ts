// `hookgate serve --tracking-plan` with a pattern that backtracks catastrophically on JavaScript's engine
// (`^(a+)+$`), as a real process: the public write key lets anyone send the value made for it, and the
// intake still answers at once, the inspector still answers, and SIGTERM still stops the process.
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startCaptureReceiver, type CaptureReceiver } from '../helpers/capture-receiver.js';
import { startCliFromSources } from '../helpers/local-http.js';

const PLAN = fileURLToPath(
  new URL('../../../../test/fixtures/tracking-plans/corpus/good-linear-patterns.json', import.meta.url),
);
let receiver: CaptureReceiver;
beforeAll(async () => {
  receiver = await startCaptureReceiver();
});
afterAll(async () => {
  await receiver.close();
});

it('answers a value made for ^(a+)+$ at once, keeps answering other calls, and stops on SIGTERM', async () => {
  const serve = startCliFromSources([
    'serve',
    '--endpoint',
    `${receiver.url}/webhooks`,
    '--secret',
    'plan-s3cret',
    '--port',
    '0',
    '--json',
    '--tracking-plan',
    PLAN,
    '--violations',
    'omit',
  ]);
  let failure: Error | undefined;
  try {
    const [, url] = (await serve.waitFor(/"event":"listening","url":"(http:\/\/[^"]+)"/, 60_000)) as unknown as [
      string,
      string,
    ];
    const post = async (properties: Record<string, unknown>) => {
      const started = Date.now();
      const answer = await fetch(`${url}/v1/track`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Basic ${Buffer.from('hookgate-dev:').toString('base64')}`,
        },
        body: JSON.stringify({ userId: 'u1', event: 'Signed Up', properties }),
        // A process held by a backtracking pattern never answers: fail here, then stop it below.
        signal: AbortSignal.timeout(15_000),
      });
      return { status: answer.status, ms: Date.now() - started };
    };
    // 31 × a + "!" held the intake 6 s on JavaScript's engine; 51 stopped the process answering at all.
    const answers = await Promise.all([
      post({ code: `${'a'.repeat(51)}!` }),
      post({ code: `${'a'.repeat(10_000)}!` }),
      post({ code: 'aaa' }),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(Math.max(...answers.map((a) => a.ms))).toBeLessThan(4_000);
    // Delivered without the offending property, the violation in context.protocols.
    await serve.waitFor(/"event":"attempt"[\s\S]*"event":"attempt"[\s\S]*"event":"attempt"/, 30_000);
    const trimmed = receiver.received
      .map((r) => r.json as { properties: Record<string, unknown>; context?: { protocols?: unknown } })
      .filter((m) => !('code' in m.properties));
    expect(trimmed).toHaveLength(2);
    expect(trimmed[0]!.context?.protocols).toMatchObject({
      omitted_on_violation: ['code'],
      violations: [{ field: 'properties.code', description: 'must match pattern "^(a+)+$"' }],
    });
  } catch (error) {
    failure = error instanceof Error ? error : new Error(String(error));
  }
  // Stopped in every case, the test passing or not: SIGTERM, then SIGKILL if it did not stop.
  serve.child.kill('SIGTERM');
  const stopped = await Promise.race([
    serve.exited,
    new Promise<string>((resolve) => setTimeout(() => resolve('still running 20 s after SIGTERM'), 20_000)),
  ]);
  serve.child.kill('SIGKILL');
  if (failure !== undefined) throw failure;
  expect(stopped).toBe(0);
}, 120_000);
