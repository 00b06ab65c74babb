// A real client that uploads a large body as fast as the socket takes it and reports the status it
// read, or the error it got instead (a reset before any answer is the failure the tests look for).
import http from 'node:http';

/** What one upload saw: the status it read (0 if none) and the error it got before that, if any. */
export interface UploadOutcome {
  status: number;
  code?: string;
  error?: string;
}

const CHUNK = Buffer.alloc(64 * 1024, 0x20);

/**
 * POSTs `totalBytes` of JSON-typed whitespace to `url` (with a Content-Length unless `chunked`),
 * signed with a well-formed but wrong signature. Like a sender that writes its whole body before it
 * looks at the answer, it keeps writing after an answer arrived (until the server stops reading).
 */
export function uploadOversize(url: string, totalBytes: number, { chunked = false } = {}): Promise<UploadOutcome> {
  return new Promise((resolve) => {
    let settled = false;
    let answered = false;
    const finish = (outcome: UploadOutcome) => {
      if (settled) return;
      settled = true;
      resolve(outcome);
    };
    const headers: Record<string, string> = { 'content-type': 'application/json', 'x-signature': 'ab'.repeat(20) };
    if (!chunked) headers['content-length'] = String(totalBytes);
    const req = http.request(url, { method: 'POST', headers, agent: false }, (res) => {
      answered = true;
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      const done = () => {
        let code: string | undefined;
        try {
          code = (JSON.parse(Buffer.concat(parts).toString('utf8')) as { code?: string }).code;
        } catch {
          code = undefined;
        }
        finish({ status: res.statusCode ?? 0, code });
      };
      res.on('end', done);
      res.on('error', done);
      res.on('aborted', done);
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (!answered) finish({ status: 0, error: error.code ?? error.message });
    });
    let sent = 0;
    const pump = () => {
      while (sent < totalBytes) {
        const n = Math.min(CHUNK.length, totalBytes - sent);
        sent += n;
        if (!req.write(n === CHUNK.length ? CHUNK : CHUNK.subarray(0, n))) return void req.once('drain', pump);
      }
      req.end();
    };
    pump();
    // The server may keep the connection after its answer (it read the rest): nothing left to wait for.
    req.setTimeout(30_000, () => req.destroy());
  });
}
