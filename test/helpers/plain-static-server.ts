// The plainest static file server: a path is a file under `dir`, `<path>.html` (clean URLs) or
// `<path>/index.html`, answered as it is, without redirecting `/api` to `/api/` (as VitePress's own
// preview server and many CDNs do). Pages whose relative links only work behind a trailing slash break
// here, as they do for users.
import { createServer, type Server } from 'node:http';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/** Serves `dir` on 127.0.0.1 (an ephemeral port); resolves with the server and its base URL. */
export async function servePlainStatic(dir: string): Promise<{ server: Server; url: string }> {
  const root = path.resolve(dir);
  const server = createServer((req, res) => {
    const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const base = path.resolve(root, `.${pathname}`);
    const file = [base, `${base}.html`, path.join(base, 'index.html')].find(
      (f) => f.startsWith(root) && existsSync(f) && statSync(f).isFile(),
    );
    if (!file) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}
