// A sender that writes its whole oversize body before it reads anything, run as its own process (so
// it never shares an event loop with the server under test): `node --import tsx late-reader-client.ts
// '<json>'` with { url, clients, totalBytes, writeMs, chunked }. Each client opens a raw socket, does
// not read from it, writes the request head and then `totalBytes` of JSON-typed whitespace spread
// evenly over `writeMs`, and only then reads the answer. A server that closes its side while bytes are
// still arriving makes the kernel send a reset, which throws away the answer unread in the client's
// buffer: the client then reports the error instead of a status. Prints one line: `OUTCOMES=<json>`.
import net from 'node:net';

interface Plan {
  url: string;
  clients: number;
  totalBytes: number;
  writeMs: number;
  chunked: boolean;
}

/** What one client saw: the status and body it read, or the error it got instead; and when. */
export interface LateReaderOutcome {
  status: number;
  body?: string;
  error?: string;
  /** Milliseconds from connecting until the body was written (the client read nothing before). */
  wroteMs?: number;
}

const SLICES = 96;

function upload(plan: Plan): Promise<LateReaderOutcome> {
  const url = new URL(plan.url);
  return new Promise((resolve) => {
    let settled = false;
    let wroteMs: number | undefined;
    const received: Buffer[] = [];
    const socket = net.connect({ host: url.hostname, port: Number(url.port) });
    const finish = (outcome: LateReaderOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(giveUp);
      socket.destroy();
      resolve({ ...outcome, wroteMs });
    };
    const giveUp = setTimeout(() => finish({ status: 0, error: 'no answer within 20 s' }), 20_000);
    socket.pause(); // nothing is read until the whole body is written
    socket.on('error', (error: NodeJS.ErrnoException) => finish({ status: 0, error: error.code ?? error.message }));
    socket.on('data', (chunk: Buffer) => {
      received.push(chunk);
      const answer = parseAnswer(Buffer.concat(received));
      if (answer !== undefined) finish(answer);
    });
    socket.on('end', () =>
      finish(
        parseAnswer(Buffer.concat(received)) ?? {
          status: 0,
          error: `closed after ${Buffer.concat(received).length} bytes`,
        },
      ),
    );
    socket.on('connect', () => {
      const head = [
        `POST ${url.pathname} HTTP/1.1`,
        `Host: ${url.host}`,
        'Content-Type: application/json',
        // Well-formed, wrong: nothing here may run a handler.
        `X-Signature: ${'ab'.repeat(20)}`,
        plan.chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${plan.totalBytes}`,
        '',
        '',
      ].join('\r\n');
      socket.write(head);
      const started = Date.now();
      const sliceBytes = Math.ceil(plan.totalBytes / SLICES);
      let sent = 0;
      let slice = 0;
      const writeDue = () => {
        if (settled) return;
        // Slices are due at even times; a late timer catches up, so the body ends near `writeMs`.
        const due = Math.min(SLICES, Math.floor(((Date.now() - started) / plan.writeMs) * SLICES) + 1);
        while (slice < due && sent < plan.totalBytes) {
          const n = Math.min(sliceBytes, plan.totalBytes - sent);
          const bytes = Buffer.alloc(n, 0x20);
          socket.write(
            plan.chunked ? Buffer.concat([Buffer.from(`${n.toString(16)}\r\n`), bytes, Buffer.from('\r\n')]) : bytes,
          );
          sent += n;
          slice++;
        }
        if (sent < plan.totalBytes) return void setTimeout(writeDue, plan.writeMs / SLICES);
        if (plan.chunked) socket.write('0\r\n\r\n');
        wroteMs = Date.now() - started;
        socket.resume(); // only now: what the server sent meanwhile waits in the kernel's buffer
      };
      writeDue();
    });
  });
}

/** A whole HTTP/1.1 answer with a Content-Length body, once all of it is here. */
function parseAnswer(bytes: Buffer): LateReaderOutcome | undefined {
  const end = bytes.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const head = bytes.subarray(0, end).toString('latin1');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0);
  const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? NaN);
  if (!Number.isFinite(length)) return { status, error: 'answer without a Content-Length' };
  if (bytes.length < end + 4 + length) return undefined;
  return { status, body: bytes.subarray(end + 4, end + 4 + length).toString('utf8') };
}

const plan = JSON.parse(process.argv[2] ?? '{}') as Plan;
const outcomes = await Promise.all(Array.from({ length: plan.clients }, () => upload(plan)));
process.stdout.write(`OUTCOMES=${JSON.stringify(outcomes)}\n`);
