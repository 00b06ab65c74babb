// Runs a client script in a process of its own (the behaviour under test depends on timing and socket
// close, so client and server must not share an event loop) and returns what it printed on its
// `OUTCOMES=<json>` line.
import { spawn } from 'node:child_process';

/**
 * Starts `node --import tsx <script> <JSON of plan>` and resolves with the parsed `OUTCOMES=` line; rejects
 * with the end of its output when it exits otherwise.
 *
 * @example
 * const outcomes = await runOutcomesProcess<RawOutcome[]>(CLIENT, plans);
 */
export function runOutcomesProcess<T>(script: string, plan: unknown): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, JSON.stringify(plan)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.once('error', reject);
    // 'close', not 'exit': 'exit' may come before the last of stdout has been read.
    child.once('close', (code) => {
      const line = /OUTCOMES=(.*)/.exec(out)?.[1];
      if (code !== 0 || line === undefined)
        return reject(new Error(`the client process exited with ${code}:\n${out.slice(-2000)}`));
      resolve(JSON.parse(line) as T);
    });
  });
}
