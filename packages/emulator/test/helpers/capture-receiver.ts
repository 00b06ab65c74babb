// A real HTTP receiver on 127.0.0.1 that records every request and answers as a test tells it.
import type http from 'node:http';
import { readAll, startHttpServer, type RunningServer } from '../../../../test/helpers/servers.js';

/** One request as the receiver got it. */
export interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  rawHeaderNames: string[];
  body: Buffer;
  text: string;
  json: Record<string, unknown>;
}

/** How to answer: a status (with optional headers), or hang (never answer), or reset the socket. */
export type Answer =
  number | { status: number; headers?: Record<string, string>; body?: string; delayMs?: number } | 'hang' | 'reset';

export interface CaptureReceiver extends RunningServer {
  received: Received[];
  /** Sets how the next requests are answered (index = 0-based request number on this receiver). */
  answer: (fn: (req: Received, index: number) => Answer) => void;
}

/** Starts a recording receiver; answers 200 until told otherwise. */
export async function startCaptureReceiver(
  answer: (req: Received, index: number) => Answer = () => 200,
): Promise<CaptureReceiver> {
  let respond = answer;
  const received: Received[] = [];
  const server = await startHttpServer(async (req, res) => {
    const body = await readAll(req);
    const text = body.toString('utf8');
    let json: Record<string, unknown> = {};
    try {
      json = JSON.parse(text) as Record<string, unknown>;
    } catch {
      /* not JSON: left empty */
    }
    const r: Received = {
      method: req.method ?? '',
      url: req.url ?? '',
      headers: req.headers,
      rawHeaderNames: req.rawHeaders.filter((_, i) => i % 2 === 0),
      body,
      text,
      json,
    };
    const index = received.push(r) - 1;
    const a = respond(r, index);
    if (a === 'hang') return;
    if (a === 'reset') {
      req.socket.destroy();
      return;
    }
    const spec = typeof a === 'number' ? { status: a } : a;
    const send = () => {
      res.writeHead(spec.status, spec.headers ?? {});
      res.end(spec.body ?? 'ok');
    };
    if (spec.delayMs) setTimeout(send, spec.delayMs);
    else send();
  });
  return Object.assign(server, {
    received,
    answer: (fn: (req: Received, index: number) => Answer) => {
      respond = fn;
    },
  });
}
