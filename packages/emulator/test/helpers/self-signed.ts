// A self-signed certificate for 127.0.0.1, made by the test (selfsigned is a dev dependency).
import { once } from 'node:events';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import selfsigned from 'selfsigned';

export interface TlsServer {
  url: string;
  cert: string;
  /** Requests the server's handler saw (0 when the handshake failed before any request). */
  requests: number;
  /** TLS handshakes the server saw fail. */
  handshakeErrors: number;
  close(): Promise<void>;
}

/** Starts an HTTPS server on 127.0.0.1 with a fresh self-signed certificate; it answers 200. */
export async function startSelfSignedServer(): Promise<TlsServer> {
  const pems = selfsigned.generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keySize: 2048,
    days: 2,
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true },
      { name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] },
    ],
  });
  const state = { requests: 0, handshakeErrors: 0 };
  const server = https.createServer({ key: pems.private, cert: pems.cert }, (req, res) => {
    state.requests++;
    req.resume();
    req.on('end', () => res.end('ok'));
  });
  server.on('tlsClientError', () => state.handshakeErrors++);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    cert: pems.cert,
    get requests() {
      return state.requests;
    },
    get handshakeErrors() {
      return state.handshakeErrors;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
