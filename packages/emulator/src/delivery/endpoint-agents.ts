import http from 'node:http';
import https from 'node:https';
import tls from 'node:tls';
import type { TlsOptions } from './delivery-options.js';
import { requestHeaders } from './request-headers.js';

/**
 * The certificates an HTTPS endpoint may chain to: Node's root certificates and the `ca` given (the
 * `tls.ca` option adds to them, it does not replace them).
 *
 * @example
 * trustedCertificates(testCaPem).length === tls.rootCertificates.length + 1; // true
 */
export function trustedCertificates(ca: TlsOptions['ca']): Array<string | Buffer> {
  const extra = ca === undefined ? [] : Array.isArray(ca) ? ca : [ca];
  return [...tls.rootCertificates, ...extra];
}

/**
 * What the agents need to know of an endpoint: its URL and static headers; an Actions endpoint also
 * its method, User-Agent and its whole header block (`headerBlock`, lines in its sender's order and case).
 */
export interface EndpointShape {
  readonly parsed: URL;
  readonly headers: Readonly<Record<string, string>>;
  readonly method?: string;
  readonly userAgent?: string;
  readonly headerBlock?: (
    bodyLength: number,
    signature: string | undefined,
  ) => ReadonlyArray<readonly [string, string]>;
}

/**
 * One endpoint as requests to it are sent: its URL, method, `User-Agent`, static headers and the
 * agent of its origin.
 *
 * @example
 * const target = agents.target(endpoint);
 * target.headerList(target.headers(120, signature)); // ['User-Agent', 'Segment.io/1.0', …, 'Host', '127.0.0.1:3000']
 */
export class DeliveryTarget {
  constructor(
    readonly url: URL,
    readonly method: string,
    readonly userAgent: string,
    readonly staticHeaders: Readonly<Record<string, string>>,
    readonly agent: http.Agent,
    readonly headerBlock?: EndpointShape['headerBlock'],
  ) {}

  /**
   * The sender's headers for one request, in the order and case written: the endpoint's
   * `headerBlock` when it has one, else classic's (`requestHeaders`). What its attempt records.
   */
  headers(bodyLength: number, signature: string | undefined): Record<string, string> {
    if (this.headerBlock === undefined)
      return requestHeaders(this.userAgent, this.staticHeaders, bodyLength, signature);
    // Header names are never integer-like, so the object keeps the lines' order.
    return Object.fromEntries(this.headerBlock(bodyLength, signature));
  }

  /**
   * The request's header list, in the order written: `headers` as given, then `Host`, and
   * `Authorization: Basic …` from the URL's userinfo unless a static header sets it (node:http adds
   * `Connection: close` last).
   */
  headerList(headers: Readonly<Record<string, string>>): string[] {
    const list: string[] = [];
    let hasAuthorization = false;
    for (const name in headers) {
      if (name.toLowerCase() === 'authorization') hasAuthorization = true;
      list.push(name, headers[name] as string);
    }
    const url = this.url;
    list.push('Host', url.host);
    if (url.username && !hasAuthorization) {
      // Credentials in the URL are used for the request (as node:http does), never shown.
      const credentials = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
      list.push('Authorization', `Basic ${Buffer.from(credentials).toString('base64')}`);
    }
    return list;
  }
}

/**
 * One agent per origin (`scheme://host:port`) that gives every request a connection of its own,
 * closed after the answer (`Connection: close`): an answer can then only be the answer to its own
 * request, whatever an endpoint writes out of turn, and no request is written into a connection the
 * endpoint is closing. Unlimited sockets (the engine bounds requests in flight per endpoint); HTTPS
 * verifies certificates (Node's roots plus `tls.ca`) and resumes TLS sessions.
 *
 * @example
 * const agents = new EndpointAgents({}, 'Segment.io/1.0');
 * const target = agents.target({ parsed: new URL('http://127.0.0.1:3000/hook'), headers: {} });
 * agents.destroy(); // closes every socket
 */
export class EndpointAgents {
  readonly #agents = new Map<string, http.Agent>();
  readonly #targets = new WeakMap<EndpointShape, DeliveryTarget>();

  constructor(
    private readonly tlsOptions: TlsOptions,
    private readonly userAgent: string,
  ) {}

  /** The target of an endpoint, made on first use. */
  target(endpoint: EndpointShape): DeliveryTarget {
    let target = this.#targets.get(endpoint);
    if (target === undefined) {
      const url = endpoint.parsed;
      target = new DeliveryTarget(
        url,
        endpoint.method ?? 'POST',
        endpoint.userAgent ?? this.userAgent,
        endpoint.headers,
        this.#agentFor(url),
        endpoint.headerBlock,
      );
      this.#targets.set(endpoint, target);
    }
    return target;
  }

  #agentFor(url: URL): http.Agent {
    let agent = this.#agents.get(url.origin);
    if (agent === undefined) {
      const { ca } = this.tlsOptions;
      agent =
        url.protocol === 'https:'
          ? new https.Agent({
              keepAlive: false,
              rejectUnauthorized: true,
              ...(ca ? { ca: trustedCertificates(ca) } : {}),
            })
          : new http.Agent({ keepAlive: false });
      this.#agents.set(url.origin, agent);
    }
    return agent;
  }

  /** Closes every socket (each carries a request); the agents stay usable. */
  destroy(): void {
    for (const agent of this.#agents.values()) agent.destroy();
  }
}
