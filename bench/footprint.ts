// What a receiver with no tracking plan weighs, beside the peers (issue 46's guardrails):
// - the Workers bundle: a Hono app bundled as wrangler does (scripts/workers-bundle.mjs), each verifier's
//   share = its app's gzip size minus the bare Hono app's; bar: hookgate's share ≤ 30 KB;
// - cold start: a whole process (bench/cold-start-child.mjs: import, build, verify one signed 1 KB
//   request), its CPU from process.cpuUsage, hookgate and @octokit/webhooks in paired rounds (the order
//   alternates); bar: hookgate ≤ 1.3× octokit, the median of the per-round ratios;
// - installed size: npm installs the packed @hookgate/core and @hookgate/express tarballs with express into
//   a scratch project, beside express alone; bar: ≤ 3 MB over express.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fixture } from '@hookgate/core';
import { workersShare } from '../scripts/workers-bundle.mjs';
import { median, type BenchReport } from './lib.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const KB = 1024;
const MB = 1024 * 1024;

/** A track message of about 1 KB, and each verifier's signature of it. */
function signedRequest() {
  const body = JSON.stringify(
    fixture('track', { event: 'Order Completed', properties: { note: 'x'.repeat(700), total: 42.5 } }),
  );
  return {
    body,
    hookgate: createHmac('sha1', 'secret').update(body).digest('hex'),
    octokit: `sha256=${createHmac('sha256', 'secret').update(body).digest('hex')}`,
  };
}

/** CPU ms of one whole cold-start process. */
function coldStart(verifier: string, body: string, signature: string): number {
  const child = spawnSync(
    process.execPath,
    [fileURLToPath(new URL('./cold-start-child.mjs', import.meta.url)), verifier],
    {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, BODY: body, SIGNATURE: signature, NODE_OPTIONS: '' },
    },
  );
  const cpu = /CPU=(\d+)/.exec(child.stdout)?.[1];
  if (child.status !== 0 || !cpu) throw new Error(`cold start of ${verifier} failed: ${child.stderr}`);
  return Number(cpu) / 1000;
}

/** Bytes under a directory (files only, as `du -sb` counts them). */
function bytesUnder(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) total += bytesUnder(file);
    else if (entry.isFile()) total += statSync(file).size;
  }
  return total;
}

/** node_modules of a scratch project after `npm install` of these specifiers: bytes and package count. */
function installed(scratch: string, name: string, specifiers: string[]) {
  const dir = path.join(scratch, name);
  mkdirSync(dir);
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name, private: true }));
  execFileSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', ...specifiers], {
    cwd: dir,
    stdio: 'ignore',
  });
  const modules = path.join(dir, 'node_modules');
  const lock = JSON.parse(readFileSync(path.join(dir, 'package-lock.json'), 'utf8'));
  return { bytes: bytesUnder(modules), packages: Object.keys(lock.packages).length - 1 };
}

/** Installed size of @hookgate/core + @hookgate/express over express alone. */
function installedOverExpress() {
  const scratch = mkdtempSync(path.join(tmpdir(), 'hookgate-footprint-'));
  try {
    const packed = path.join(scratch, 'packed');
    for (const pkg of ['core', 'express'])
      execFileSync('npx', ['-y', 'pnpm@10', 'pack', '--pack-destination', packed], {
        cwd: path.join(root, 'packages', pkg),
        stdio: 'ignore',
      });
    const tarballs = readdirSync(packed).map((f) => path.join(packed, f));
    const express = installed(scratch, 'express-alone', ['express@5']);
    const withHookgate = installed(scratch, 'with-hookgate', ['express@5', ...tarballs]);
    return {
      bytes: withHookgate.bytes - express.bytes,
      packages: withHookgate.packages - express.packages,
      express,
    };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

export default async function bench(): Promise<BenchReport> {
  const [hookgate, octokit, standard] = [
    await workersShare('hookgate'),
    await workersShare('@octokit/webhooks'),
    await workersShare('standardwebhooks'),
  ];

  const request = signedRequest();
  const ours: number[] = [];
  const theirs: number[] = [];
  const ratios: number[] = [];
  const ourStart = () => coldStart('hookgate', request.body, request.hookgate);
  const octokitStart = () => coldStart('@octokit/webhooks', request.body, request.octokit);
  ourStart(); // warm the file system cache for both
  octokitStart();
  for (let round = 0; round < 11; round++) {
    // Alternate which goes first, so that drift in machine load favours neither.
    let a: number;
    let b: number;
    if (round % 2 === 0) {
      a = ourStart();
      b = octokitStart();
    } else {
      b = octokitStart();
      a = ourStart();
    }
    ours.push(a);
    theirs.push(b);
    ratios.push(a / b);
  }
  const coldRatio = median(ratios);

  const install = installedOverExpress();
  const kb = (bytes: number) => `${(bytes / KB).toFixed(1)} KB`;
  return {
    title: 'footprint of a receiver with no tracking plan: Workers bundle, cold start, installed size',
    rows: [
      {
        verifier: 'hookgate (@hookgate/hono)',
        'Workers share gzip (min)': `${kb(hookgate.gzip)} (${kb(hookgate.minified)})`,
        'cold start cpu ms': Number(median(ours).toFixed(1)),
        'installed over express': `${(install.bytes / MB).toFixed(2)} MB, ${install.packages} packages`,
      },
      {
        verifier: '@octokit/webhooks',
        'Workers share gzip (min)': `${kb(octokit.gzip)} (${kb(octokit.minified)})`,
        'cold start cpu ms': Number(median(theirs).toFixed(1)),
        'installed over express': '',
      },
      {
        verifier: 'standardwebhooks',
        'Workers share gzip (min)': `${kb(standard.gzip)} (${kb(standard.minified)})`,
        'cold start cpu ms': '',
        'installed over express': '',
      },
    ],
    ratios: {
      '30 KB / Workers share': Number(((30 * KB) / hookgate.gzip).toFixed(2)),
      '1.3 / (cold start ÷ octokit)': Number((1.3 / coldRatio).toFixed(2)),
      '3 MB / installed over express': Number(((3 * MB) / install.bytes).toFixed(2)),
    },
    bars: { '30 KB / Workers share': 1, '1.3 / (cold start ÷ octokit)': 1, '3 MB / installed over express': 1 },
    notes: [
      `cold start ÷ octokit ${coldRatio.toFixed(2)} (median of 11 paired rounds, whole processes, user + system CPU)`,
      `express alone: ${(install.express.bytes / MB).toFixed(2)} MB, ${install.express.packages} packages`,
      `biggest inputs of hookgate's Workers bundle: ${hookgate.inputs
        .slice(0, 5)
        .map((i) => `${i.file.replace(/^.*node_modules\//, '')} ${kb(i.bytes)}`)
        .join(', ')}`,
    ],
  };
}
