import { readFile } from 'node:fs/promises';

/**
 * Reads all of stdin as bytes.
 *
 * @example
 * const body = await readStdin();
 */
export async function readStdin(): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin)
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks);
}

/**
 * Reads a `--data` argument: a file path, or `-` for stdin.
 *
 * @example
 * const bytes = await readDataArg('message.json');
 */
export async function readDataArg(path: string): Promise<Buffer> {
  return path === '-' ? readStdin() : readFile(path);
}
