// The size budgets of `pnpm check:packages` (scripts/size-budgets.json, committed): each tarball's unpacked
// bytes (what `npm install` writes) and hookgate's share of a no-plan Workers bundle (gzip). Growth past a
// budget fails the check, so it shows in review; raising a budget is a one-line diff that says why.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { workersShare } from './workers-bundle.mjs';

const committed = JSON.parse(readFileSync(new URL('./size-budgets.json', import.meta.url), 'utf8'));

/** The bytes a tarball unpacks to: the sizes `tar -tvzf` lists, summed. */
export function unpackedBytes(tarball) {
  const listing = execFileSync('tar', ['-tvzf', tarball], { encoding: 'utf8' });
  // GNU tar: "-rw-r--r-- 0/0  1234 2026-01-01 00:00 package/dist/index.js": the size is the third column.
  return listing
    .trim()
    .split('\n')
    .reduce((sum, line) => sum + Number(line.trim().split(/\s+/)[2]), 0);
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

/**
 * Checks each package's tarball, and the Workers bundle, against the committed budgets.
 *
 * @example
 * const { lines, failures } = await checkSizeBudgets([{ name: '@hookgate/core', tarball }]);
 */
export async function checkSizeBudgets(packages, budgets = committed, bundle = () => workersShare('hookgate')) {
  const lines = [];
  const failures = [];
  for (const { name, tarball } of packages) {
    const size = unpackedBytes(tarball);
    const budget = budgets.tarballs[name];
    if (budget === undefined) failures.push(`${name}: no size budget in scripts/size-budgets.json (add one)`);
    else if (size > budget) failures.push(`${name}: unpacks to ${kb(size)}, over its budget of ${kb(budget)}`);
    else lines.push(`${name} ${kb(size)} ≤ ${kb(budget)}`);
  }
  const share = await bundle();
  const { gzip: budget, forbidden } = budgets.workersBundle;
  if (share.gzip > budget)
    failures.push(
      `the no-plan Workers bundle: hookgate's share is ${kb(share.gzip)} gzip, over its budget of ${kb(budget)}; ` +
        `biggest inputs: ${share.inputs
          .slice(0, 8)
          .map((i) => `${i.file} ${kb(i.bytes)}`)
          .join(', ')}`,
    );
  else lines.push(`no-plan Workers bundle, hookgate's share ${kb(share.gzip)} gzip ≤ ${kb(budget)}`);
  const banned = share.inputs.filter((i) => forbidden.some((part) => i.file.includes(part)));
  if (banned.length > 0)
    failures.push(`the no-plan Workers bundle holds ${banned.map((i) => i.file).join(', ')} (none may be in it)`);
  return { lines, failures };
}
