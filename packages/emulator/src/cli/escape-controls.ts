// What a terminal would act on instead of showing: C0 and C1 controls (CR and LF start a line that
// looks like the program's own, ESC and CSI move the cursor or recolour), DEL, and the invisible
// format characters that reorder or hide text (bidi overrides and isolates, line and paragraph
// separators, zero-width characters, the byte order mark).
// eslint-disable-next-line no-control-regex
const UNPRINTABLE = /[\x00-\x1f\x7f-\x9f\u00ad\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/gu;
const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * Text from outside (a URL, a header, a status line, a reason, a body) as the CLI prints it: every
 * character a terminal would act on instead of showing is written as an escape (`\n`, `\r`, `\t`,
 * `\x1b`, `\u202e`), so no printed value can start a line of its own or restyle the output.
 *
 * @example
 * escapeControls('503 oops\r\n12:00:00 dlv_1 delivered'); // '503 oops\\r\\n12:00:00 dlv_1 delivered'
 */
export function escapeControls(text: string): string {
  return text.replace(UNPRINTABLE, (ch) => {
    const named = NAMED[ch];
    if (named !== undefined) return named;
    const cp = ch.codePointAt(0) as number;
    return cp <= 0xff ? `\\x${cp.toString(16).padStart(2, '0')}` : `\\u${cp.toString(16).padStart(4, '0')}`;
  });
}
