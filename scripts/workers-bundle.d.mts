// Types of workers-bundle.mjs, for the TypeScript that imports it (bench/footprint.ts).
export interface WorkersBundle {
  /** Minified bytes (for a share: the difference from the bare Hono app's). */
  minified: number;
  /** Gzip bytes, level 9. */
  gzip: number;
  /** Each input file's bytes in the minified output, biggest first. */
  inputs: Array<{ file: string; bytes: number }>;
}
export const WORKERS_APPS: Record<'none' | 'hookgate' | '@octokit/webhooks' | 'standardwebhooks', string>;
export function bundleWorkersApp(name: keyof typeof WORKERS_APPS): Promise<WorkersBundle>;
export function workersShare(name: keyof typeof WORKERS_APPS): Promise<WorkersBundle>;
