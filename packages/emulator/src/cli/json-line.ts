/**
 * Writes one JSON object as one line (the `--json` output of `send`, `serve` and `conformance`):
 * a stream a program reads line by line, e.g. with `jq -c` or `readline`.
 *
 * @example
 * writeJsonLine(process.stdout, { event: 'attempt', status: 200 });
 */
export function writeJsonLine(stream: NodeJS.WritableStream, value: Record<string, unknown>): void {
  stream.write(`${JSON.stringify(value)}\n`);
}
