// A Hono app that verifies one webhook, bundled the way a Cloudflare Worker ships it (esbuild --bundle
// --minify --format=esm --platform=neutral, with the export conditions wrangler sets), once per verifier. A library's share is its app's gzip size
// minus that of the same app with no verifier, so Hono itself is not counted. Used by
// `pnpm check:packages` (hookgate's share against scripts/size-budgets.json) and bench/footprint.ts
// (beside @octokit/webhooks and standardwebhooks). Needs the built packages (`pnpm build`).
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Each verifier's Workers entry: a Hono app with one POST route, no tracking plan. */
export const WORKERS_APPS = {
  none: `
    const app = new Hono();
    app.post('/webhooks', async (c) => c.json({ ok: true, bytes: (await c.req.text()).length }));`,
  hookgate: `
    import { hookgate } from '@hookgate/hono';
    const app = new Hono();
    app.post('/webhooks', hookgate({ secret: 'secret' }), (c) => c.json({ ok: true, type: c.get('webhook').type }));`,
  '@octokit/webhooks': `
    import { Webhooks } from '@octokit/webhooks';
    const webhooks = new Webhooks({ secret: 'secret' });
    const app = new Hono();
    app.post('/webhooks', async (c) => {
      const body = await c.req.text();
      const ok = await webhooks.verify(body, c.req.header('x-hub-signature-256') ?? '');
      return ok ? c.json({ ok: true, action: JSON.parse(body).action }) : c.text('bad signature', 401);
    });`,
  standardwebhooks: `
    import { Webhook } from 'standardwebhooks';
    const webhook = new Webhook('c2VjcmV0LXNlY3JldC1zZWNyZXQ=');
    const app = new Hono();
    app.post('/webhooks', async (c) => {
      const body = await c.req.text();
      try {
        return c.json({ ok: true, type: webhook.verify(body, c.req.header()).type });
      } catch {
        return c.text('bad signature', 401);
      }
    });`,
};

/**
 * Bundles one app for Workers.
 *
 * @example
 * const { gzip, inputs } = await bundleWorkersApp('hookgate');
 */
export async function bundleWorkersApp(name) {
  const source = `import { Hono } from 'hono';\n${WORKERS_APPS[name]}\nexport default app;\n`;
  const result = await build({
    stdin: { contents: source, resolveDir: root, loader: 'js', sourcefile: `${name}-worker.js` },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'neutral',
    // wrangler's resolution: @octokit/webhooks-methods has a Web Crypto build; standardwebhooks has only "main".
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['browser', 'module', 'main'],
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0].contents;
  const [output] = Object.values(result.metafile.outputs);
  return {
    minified: code.byteLength,
    gzip: gzipSync(code, { level: 9 }).byteLength,
    // Each input file's bytes in the minified output, biggest first.
    inputs: Object.entries(output.inputs)
      .map(([file, { bytesInOutput }]) => ({ file, bytes: bytesInOutput }))
      .sort((a, b) => b.bytes - a.bytes),
  };
}

/**
 * A verifier's share of its Workers bundle: its app's sizes minus the bare Hono app's.
 *
 * @example
 * const share = await workersShare('hookgate'); // { gzip, minified, inputs }
 */
export async function workersShare(name) {
  const [app, bare] = await Promise.all([bundleWorkersApp(name), bundleWorkersApp('none')]);
  return { gzip: app.gzip - bare.gzip, minified: app.minified - bare.minified, inputs: app.inputs };
}
