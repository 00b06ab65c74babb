/**
 * The library this client reports in every batch's `context.library`.
 * Kept in step with package.json (a test checks it), so the source, the ESM and the CJS builds agree.
 *
 * @example
 * import { LIBRARY } from '@hookgate/client';
 * console.log(`${LIBRARY.name}@${LIBRARY.version}`); // "@hookgate/client@0.1.0"
 */
export const LIBRARY = Object.freeze({ name: '@hookgate/client', version: '0.1.0' } as const);
