import { UsageError } from './usage-error.js';

/**
 * The one wording of "port in use" for every command that listens (`serve`, `listen`): the port,
 * the address, and the flag that picks another. A usage error, so exit code 2.
 *
 * @example
 * if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') throw portInUse('listen', 9000, '127.0.0.1');
 */
export function portInUse(command: string, port: number, host: string): UsageError {
  return new UsageError(command, `port ${port} on ${host} is in use; pick another with --port (0 picks a free one).`);
}
