import { styleText } from 'node:util';

/** A colour or text style for `paint`. */
export type Style = Parameters<typeof styleText>[0];

/**
 * Whether to colour a stream: only a terminal, and only when `NO_COLOR` is unset (https://no-color.org).
 *
 * @example
 * const color = wantsColor(process.stdout);
 */
export function wantsColor(stream: { isTTY?: boolean }): boolean {
  return stream.isTTY === true && !process.env.NO_COLOR;
}

/**
 * A painter that applies `styleText` when `color` is on (the caller decided, e.g. with `wantsColor`),
 * and returns the text unchanged otherwise.
 *
 * @example
 * const paint = painter(wantsColor(process.stdout));
 * console.log(paint('green', 'ok'));
 */
export function painter(color: boolean): (style: Style, text: string) => string {
  return color ? (style, text) => styleText(style, text, { validateStream: false }) : (_style, text) => text;
}

/**
 * The style of an HTTP status: green 2xx, yellow 4xx, red 5xx and failures.
 *
 * @example
 * paint(statusStyle(503), '503');
 */
export function statusStyle(status: number | undefined): Style {
  if (status === undefined) return 'red';
  if (status < 300) return 'green';
  if (status < 500) return 'yellow';
  return 'red';
}
