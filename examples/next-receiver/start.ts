// The Next.js example, started by one command: `pnpm example:next`.
// Builds @hookgate/core when it has no build yet, runs `next build` (a production build), then
// `next start` on PORT (default 3005) and HOST (default 127.0.0.1) with WEBHOOK_SECRET (default: a
// fresh random secret, printed). The route handler is app/webhooks/route.ts.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const here = fileURLToPath(new URL('.', import.meta.url));
const nextBin = createRequire(import.meta.url).resolve('next/dist/bin/next');

function run(args: string[], cwd: string, what: string): void {
  const result = spawnSync(process.execPath, args, {
    cwd,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
  });
  if (result.status !== 0) {
    console.error(`hookgate next example: ${what} failed (exit code ${result.status ?? result.signal}).`);
    process.exit(1);
  }
}

// Next resolves @hookgate/core like an application would: the package's build, not its sources.
if (!existsSync(`${root}packages/core/dist/index.js`)) {
  console.log('Building @hookgate/core (first run)…');
  const pnpm = spawnSync('npx', ['-y', 'pnpm@10', '--filter', './packages/core', 'build'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (pnpm.status !== 0) process.exit(1);
}
console.log('next build…');
run([nextBin, 'build'], here, 'next build');

const port = process.env.PORT ?? '3005';
const host = process.env.HOST ?? '127.0.0.1';
const secret = process.env.WEBHOOK_SECRET || randomBytes(24).toString('hex');
const server = spawn(process.execPath, [nextBin, 'start', '--port', port, '--hostname', host], {
  cwd: here,
  stdio: ['ignore', 'pipe', 'inherit'],
  env: { ...process.env, WEBHOOK_SECRET: secret, NEXT_TELEMETRY_DISABLED: '1' },
});
server.stdout.setEncoding('utf8');
let announced = false;
server.stdout.on('data', (text: string) => {
  process.stdout.write(text);
  const ready = /Local:\s+(http:\/\/\S+)/.exec(text);
  if (ready && !announced) {
    announced = true;
    const url = `${ready[1]!.replace('localhost', host)}/webhooks`;
    console.log('hookgate Next.js receiver');
    console.log(`  URL:    ${url}`);
    console.log(
      `  Secret: ${secret}${process.env.WEBHOOK_SECRET ? ' (from WEBHOOK_SECRET)' : ' (generated; set WEBHOOK_SECRET to choose one)'}`,
    );
    console.log('  Send a signed message:');
    console.log(
      `    BODY='{"version":1,"type":"track","userId":"u1","event":"Signed Up","timestamp":"2026-01-01T00:00:00.000Z"}'`,
    );
    console.log(`    curl -i ${url} -H 'content-type: application/json' \\`);
    console.log(
      `      -H "x-signature: $(printf %s "$BODY" | openssl dgst -sha1 -hmac '${secret}' | sed 's/^.* //')" -d "$BODY"`,
    );
  }
});
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => server.kill('SIGTERM'));
