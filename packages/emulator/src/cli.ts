#!/usr/bin/env node
// The `hookgate` bin: serve, send, fixtures, sign, conformance. See `hookgate --help`.
import { main } from './cli/main.js';
import { watchStdout } from './cli/stop-request.js';

watchStdout();

void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
