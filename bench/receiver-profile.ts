// Where a receiver's server CPU goes: the top frames (self time) of `node --cpu-prof` of one route of
// the adapters benchmark under autocannon load (10 connections, the same 1 KB signed body). The server
// is the adapters benchmark's own (`bench/adapters.ts --serve`, the built packages), run in a child
// process with --cpu-prof; this process sends the load, then reads the profile it wrote on exit.
//   node --import tsx bench/receiver-profile.ts [core|express|fastify|hono] [webhooks|hand] [seconds]
// Prints the 15 frames with the most self time, as a share of the profile's busy samples (idle left
// out; the server's start-up is in them, a small part of a 10 s load); "(garbage collector)" is GC,
// "(program)" the engine and native code outside JavaScript.
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { trackBody1k } from './bodies.js';
import { topFrames, type Profile } from './top-frames.js';

const SECRET = 'whsec_bench_adapters_61d0'; // the adapters benchmark's
const [framework = 'core', route = 'webhooks', seconds = '10'] = process.argv.slice(2);

const dir = mkdtempSync(path.join(tmpdir(), 'hookgate-profile-'));
const child = spawn(
  process.execPath,
  [
    '--cpu-prof',
    `--cpu-prof-dir=${dir}`,
    '--import',
    'tsx',
    fileURLToPath(new URL('./adapters.ts', import.meta.url)),
    '--serve',
  ],
  { stdio: ['pipe', 'pipe', 'inherit'], env: process.env },
);
let out = '';
const urls = await new Promise<Record<string, string>>((resolve, reject) => {
  child.stdout.on('data', (c: Buffer) => {
    out += c.toString();
    const m = /BENCH_URLS=(\{.*\})/.exec(out);
    if (m) resolve(JSON.parse(m[1]!) as Record<string, string>);
  });
  child.once('exit', (code) => reject(new Error(`the server exited (${code}):\n${out}`)));
});
const body = trackBody1k();
const autocannon = createRequire(import.meta.url)('autocannon') as (
  o: object,
) => Promise<{ requests: { total: number }; non2xx: number }>;
const result = await autocannon({
  url: `${urls[framework]}/${route}`,
  method: 'POST',
  connections: 10,
  duration: Number(seconds),
  headers: {
    'content-type': 'application/json',
    'x-signature': createHmac('sha1', SECRET).update(body).digest('hex'),
  },
  body,
});
if (result.non2xx > 0)
  throw new Error(`${framework} /${route} answered ${result.non2xx} non-2xx: the profile would be of refusals.`);
child.stdin.end();
// The server exits by itself when its stdin ends: --cpu-prof writes its file only on a normal exit.
await once(child, 'exit');
const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
if (file === undefined) throw new Error(`no profile written in ${dir}`);
console.log(
  `${framework} /${route}: ${result.requests.total} requests in ${seconds} s; top frames by self time (${path.join(dir, file)}):`,
);
for (const line of topFrames(JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as Profile, 15)) console.log(line);
