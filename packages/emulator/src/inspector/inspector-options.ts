/**
 * Options of the web inspector served on the intake's port.
 *
 * @example
 * await emulator.listen({ host: '0.0.0.0', inspector: { token: process.env.HOOKGATE_UI_TOKEN } });
 */
export interface InspectorOptions {
  /**
   * A token the page, its API and every `/_hookgate/*` route of the intake require (as the
   * `hookgate_ui` cookie set by opening `/?token=…`, `Authorization: Bearer …`, `X-Hookgate-Token`, or
   * `?token=` on a GET). Required when the intake binds a non-loopback interface.
   */
  token?: string;
  /** The retry window shown as "time left" in a delivery's detail. Default 4 h, as the sender's. */
  retryWindowMs?: number;
  /**
   * Rewords a record's reason for the page. Reasons name the emulator's options
   * (`set anonymousCalls: …`); `hookgate serve` passes a function that names its flags instead
   * (`pass --anonymous-calls …`). Default: the reason as it is.
   */
  reasonWording?: (reason: string) => string;
}

const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|localhost|::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3})$/i;

/**
 * Whether a host (an interface to bind, or a `Host` header's name) is the loopback interface.
 *
 * @example
 * isLoopbackHost('127.0.0.1'); // true
 * isLoopbackHost('0.0.0.0'); // false
 */
export function isLoopbackHost(host: string): boolean {
  return LOOPBACK.test(host.replace(/^\[|\]$/g, ''));
}

/**
 * Refuses to expose the inspector beyond this machine without a token: throws a `TypeError` naming the
 * fix when `host` is not loopback and no token is set.
 *
 * @example
 * assertInspectorExposure('0.0.0.0', undefined); // throws: set a token or bind 127.0.0.1
 */
export function assertInspectorExposure(host: string, options: InspectorOptions | false | undefined): void {
  if (options === false || isLoopbackHost(host)) return;
  if (options?.token === undefined || options.token.length < 16) {
    throw new TypeError(
      `Binding ${host} exposes the web inspector (it shows every message and can replay them) beyond this machine: ` +
        'give it a token of at least 16 characters (inspector: { token }, or hookgate serve --ui-token / HOOKGATE_UI_TOKEN), ' +
        'turn it off (inspector: false), or bind 127.0.0.1.',
    );
  }
}
