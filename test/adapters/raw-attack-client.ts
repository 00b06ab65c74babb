// A hostile or merely slow HTTP/1.1 client, run as its own process (never on the server's event loop):
// `node --import tsx raw-attack-client.ts '<json>'` with an array of plans, all run at once. Each plan
// opens a raw socket, writes `send` (latin1), then, if asked, trickles `trickle.byte` every
// `trickle.everyMs` until `trickle.untilMs` after connecting; it reads nothing before `readFromMs`
// (a client that writes before it reads), and collects everything the server sends until the server
// closes or `waitMs` passes; `afterAnswer` is written once the first answer byte is read. Prints one line: `OUTCOMES=<json>`, one outcome per plan, in order.
import net from 'node:net';

/** One connection's script. */
export interface RawPlan {
  port: number;
  /** Bytes written at once on connect (latin1). */
  send: string;
  trickle?: { byte: string; everyMs: number; untilMs: number };
  /** After `send`: `bytes` spaces as the body (in 64 KB chunks of chunked encoding, ended, when `chunked`), then `then` (latin1). */
  fill?: { bytes: number; chunked?: boolean; then?: string };
  /** Nothing is read before this many ms after connecting (0: read as it comes). */
  readFromMs?: number;
  /** Give up this many ms after connecting. Default 10,000. */
  waitMs?: number;
  /** Written as soon as the first answer byte is read (the trickle stops): a client that sends the rest anyway. */
  afterAnswer?: string;
  /** On the first answer byte, the body's remaining bytes up to this Content-Length are written ('a's). */
  completeBodyTo?: number;
  /** Keep writing after the server closed its side (no automatic end on its FIN). */
  halfOpen?: boolean;
}

/** What one connection saw. */
export interface RawOutcome {
  /** Everything the server sent (latin1). */
  received: string;
  /** The status of each answer found in `received`, in order. */
  statuses: number[];
  /** Milliseconds from connecting to the first byte read (-1: none). */
  firstByteMs: number;
  /** Milliseconds from connecting to the server's close (-1: still open at `waitMs`). */
  closedMs: number;
  /** A socket error (ECONNRESET, EPIPE), if one came. */
  error?: string;
}

function run(plan: RawPlan): Promise<RawOutcome> {
  return new Promise((resolve) => {
    const started = Date.now();
    const parts: Buffer[] = [];
    let firstByteMs = -1;
    let error: string | undefined;
    let trickleTimer: ReturnType<typeof setInterval> | undefined;
    let settled = false;
    const headEnd = plan.send.indexOf('\r\n\r\n');
    let bodySent = headEnd < 0 ? 0 : plan.send.length - headEnd - 4;
    const socket = net.connect({ host: '127.0.0.1', port: plan.port, allowHalfOpen: plan.halfOpen === true });
    const finish = (closedMs: number) => {
      if (settled) return;
      settled = true;
      clearInterval(trickleTimer);
      clearTimeout(giveUp);
      socket.destroy();
      const received = Buffer.concat(parts).toString('latin1');
      const statuses = [...received.matchAll(/HTTP\/1\.[01] (\d{3}) /g)].map((m) => Number(m[1]));
      resolve({ received, statuses, firstByteMs, closedMs, ...(error === undefined ? {} : { error }) });
    };
    const giveUp = setTimeout(() => finish(-1), plan.waitMs ?? 10_000);
    const readFrom = plan.readFromMs ?? 0;
    if (readFrom > 0) {
      socket.pause();
      setTimeout(() => socket.resume(), readFrom);
    }
    socket.on('data', (chunk: Buffer) => {
      if (firstByteMs < 0) {
        firstByteMs = Date.now() - started;
        if (plan.afterAnswer !== undefined || plan.completeBodyTo !== undefined) clearInterval(trickleTimer);
        if (plan.afterAnswer !== undefined) socket.write(Buffer.from(plan.afterAnswer, 'latin1'));
        if (plan.completeBodyTo !== undefined && plan.completeBodyTo > bodySent)
          socket.write(Buffer.alloc(plan.completeBodyTo - bodySent, 'a'));
      }
      parts.push(chunk);
    });
    socket.on('error', (e: NodeJS.ErrnoException) => {
      error = e.code ?? e.message;
      finish(Date.now() - started);
    });
    socket.on('close', () => finish(Date.now() - started));
    // Half open: the server's FIN ends the answer; the client has written what it meant to.
    if (plan.halfOpen === true) socket.on('end', () => setTimeout(() => finish(Date.now() - started), 300));
    socket.on('connect', () => {
      socket.write(Buffer.from(plan.send, 'latin1'));
      if (plan.fill !== undefined) {
        const { bytes, chunked = false, then = '' } = plan.fill;
        for (let sent = 0; sent < bytes;) {
          const n = Math.min(65_536, bytes - sent);
          const spaces = Buffer.alloc(n, 0x20);
          socket.write(
            chunked ? Buffer.concat([Buffer.from(`${n.toString(16)}\r\n`), spaces, Buffer.from('\r\n')]) : spaces,
          );
          sent += n;
        }
        socket.write(Buffer.from(`${chunked ? '0\r\n\r\n' : ''}${then}`, 'latin1'));
      }
      const t = plan.trickle;
      if (t === undefined) return;
      trickleTimer = setInterval(() => {
        if (Date.now() - started >= t.untilMs || socket.destroyed || !socket.writable)
          return clearInterval(trickleTimer);
        socket.write(Buffer.from(t.byte, 'latin1'));
        bodySent += t.byte.length;
      }, t.everyMs);
    });
  });
}

const plans = JSON.parse(process.argv[2] ?? '[]') as RawPlan[];
const outcomes = await Promise.all(plans.map(run));
process.stdout.write(`OUTCOMES=${JSON.stringify(outcomes)}\n`);
