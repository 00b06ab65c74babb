import type http from 'node:http';
import type { InspectorOptions } from '../inspector/inspector-options.js';
import type { ServerTimeouts } from '../server-timeouts.js';

/**
 * Options of the intake (the tracking HTTP API in front of the delivery engine).
 *
 * @example
 * const options: IntakeOptions = { maxCallBytes: 16 * 1024, onError: (e) => log.error(e) };
 */
export interface IntakeOptions {
  /** Largest call in UTF-8 bytes of `JSON.stringify(call)`; a larger one is refused alone (the rest of its batch is accepted). Default 32 KB (32768). */
  maxCallBytes?: number;
  /** Largest request body in bytes (after decompression); a larger one is refused with 400 unread. Default 500 KB (512000). */
  maxBatchBytes?: number;
  /** Called with unexpected failures (answered 500). Default: one line on stderr. */
  onError?: (error: unknown) => void;
  /** The web inspector on the same port (`GET /`, see the docs' CLI and inspector page); `false` turns it off. Default on, token-less (loopback only). */
  inspector?: InspectorOptions | false;
  /**
   * Web origins (`https://app.example.com`) whose pages may call the tracking API besides loopback
   * ones (`http://localhost:3000`). A request from any other page (its `Origin`, or
   * `Sec-Fetch-Site: cross-site`) is refused 403 and not recorded; requests without `Origin`
   * (server-side clients) are not affected. Default none.
   */
  allowOrigins?: readonly string[];
}

/**
 * Options of `listenIntake` / `emulator.listen`: the intake's options plus where to listen.
 *
 * @example
 * await emulator.listen({ port: 8080, host: '127.0.0.1' });
 */
export interface IntakeListenOptions extends IntakeOptions {
  /** TCP port; 0 (the default) picks a free one. */
  port?: number;
  /** Interface to bind. Default `127.0.0.1` (loopback only); `0.0.0.0` exposes the intake to the network. */
  host?: string;
  /** Time limits of the server: headers within 10 s, the whole request within 30 s, idle keep-alive 30 s by default. */
  timeouts?: ServerTimeouts;
}

/**
 * A running intake.
 *
 * @example
 * const intake: IntakeServer = await emulator.listen();
 * console.log(intake.url); await intake.close();
 */
export interface IntakeServer {
  /** Base URL, e.g. `http://127.0.0.1:43123`: give it to a client as its `host` / `endpoint`. */
  url: string;
  port: number;
  host: string;
  /** The underlying `node:http` server. */
  server: http.Server;
  /** Stops accepting connections, lets requests in progress finish, and resolves when closed. */
  close(): Promise<void>;
}
