// A worker thread's entry: registers tsx, then runs the TypeScript child.
import { register } from 'tsx/esm/api';

register();
await import('./deep-batch-child.ts');
