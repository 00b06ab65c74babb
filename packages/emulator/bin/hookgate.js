#!/usr/bin/env node
// The `hookgate` bin. Installed from the registry or a tarball, it runs the built CLI (../dist/cli.js).
// In a clone of the hookgate repository before `pnpm build`, dist/ does not exist yet: it then runs
// the CLI's TypeScript sources through tsx (a devDependency of the workspace), with the workspace's
// root tsconfig.json mapping every @hookgate/* import to packages/*/src. Nothing else differs.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dist = new URL('../dist/cli.js', import.meta.url);
const source = new URL('../src/cli.ts', import.meta.url);
const workspaceTsconfig = new URL('../../../tsconfig.json', import.meta.url);

if (existsSync(dist)) {
  await import(dist.href);
} else if (existsSync(source) && existsSync(workspaceTsconfig)) {
  let register;
  try {
    ({ register } = await import('tsx/esm/api'));
  } catch {
    console.error(
      'hookgate: dist/cli.js is not built and tsx is not installed. Run `npx -y pnpm@10 install` (or `pnpm build`) in the repository.',
    );
    process.exit(2);
  }
  register({ tsconfig: fileURLToPath(workspaceTsconfig) });
  await import(source.href);
} else {
  console.error(
    `hookgate: ${fileURLToPath(dist)} is missing; this installation of @hookgate/emulator is incomplete. Reinstall it.`,
  );
  process.exit(2);
}
