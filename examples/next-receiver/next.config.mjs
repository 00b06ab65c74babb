// The example lives inside the hookgate workspace, whose node_modules sit two folders up.
import { fileURLToPath } from 'node:url';

const workspace = fileURLToPath(new URL('../..', import.meta.url));

/** @type {import('next').NextConfig} */
export default {
  outputFileTracingRoot: workspace,
  turbopack: { root: workspace },
};
