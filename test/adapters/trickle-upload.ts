// A real client that sends a signed body slowly (a byte at a time after the first half), as a slow
// or hostile network would, and reports when and what it was answered and when the server closed.
import http from 'node:http';

/** What a trickled upload saw. */
export interface TrickleOutcome {
  status: number;
  code?: string;
  connection?: string;
  /** Milliseconds from the request's start to the answer's headers. */
  answeredAfterMs: number;
  /** Milliseconds from the answer to the server closing the connection (Infinity: not within the wait). */
  closedAfterAnswerMs: number;
}

/** Sends `body` with a Content-Length: half at once, then one byte every `everyMs` until `totalMs` has passed and the rest at once. */
export function trickleUpload(
  url: string,
  body: string,
  signature: string,
  { everyMs = 100, totalMs = 8000 } = {},
): Promise<TrickleOutcome> {
  const bytes = Buffer.from(body, 'utf8');
  return new Promise((resolve, reject) => {
    const started = Date.now();
    let answeredAt = 0;
    let outcome: Omit<TrickleOutcome, 'closedAfterAnswerMs'> | undefined;
    // eslint-disable-next-line prefer-const -- assigned below, after the callbacks that clear it are made
    let timer: ReturnType<typeof setInterval> | undefined;
    let finished = false;
    const finish = (closedAfterAnswerMs: number) => {
      if (finished || outcome === undefined) return;
      finished = true;
      clearInterval(timer);
      resolve({ ...outcome, closedAfterAnswerMs });
      req.destroy();
    };
    const req = http.request(
      url,
      {
        method: 'POST',
        agent: false,
        headers: {
          'content-type': 'application/json',
          'content-length': String(bytes.length),
          'x-signature': signature,
        },
      },
      (res) => {
        answeredAt = Date.now();
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () => {
          let code: string | undefined;
          try {
            code = (JSON.parse(Buffer.concat(parts).toString('utf8')) as { code?: string }).code;
          } catch {
            code = undefined;
          }
          outcome = {
            status: res.statusCode ?? 0,
            code,
            connection: res.headers.connection,
            answeredAfterMs: answeredAt - started,
          };
          if (req.socket?.destroyed || req.socket?.readyState === 'closed') finish(Date.now() - answeredAt);
          setTimeout(() => finish(Infinity), 3000);
        });
      },
    );
    req.on('socket', (socket) => socket.on('close', () => (outcome ? finish(Date.now() - answeredAt) : undefined)));
    req.on('error', (error) => {
      if (!outcome) reject(error);
    });
    let sent = Math.floor(bytes.length / 2);
    req.write(bytes.subarray(0, sent));
    timer = setInterval(() => {
      if (outcome || req.destroyed) return clearInterval(timer);
      if (Date.now() - started >= totalMs || sent >= bytes.length - 1) {
        clearInterval(timer);
        req.end(bytes.subarray(sent));
        sent = bytes.length;
        return;
      }
      req.write(bytes.subarray(sent, sent + 1));
      sent += 1;
    }, everyMs);
  });
}
