// `hookgate sign` with nothing on stdin (a forgotten pipe, an empty file) still prints the signature
// of zero bytes, which is what was asked, but says so on stderr: a signature of nothing, pasted into
// a test, otherwise matches no body and nobody knows why. The bin runs from its build.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { requireBuiltCli, runCli } from '../helpers/cli-process.js';

describe('hookgate sign', () => {
  it('says the body is empty when stdin had nothing', async () => {
    requireBuiltCli();
    const r = await runCli(['sign', '--secret', 's3cret'], { input: '' });
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(createHmac('sha1', 's3cret').update('').digest('hex'));
    expect(r.stderr).toMatch(/^note: stdin was empty/m);
  });

  it('says nothing more for a body', async () => {
    const r = await runCli(['sign', '--secret', 's3cret'], { input: '{"type":"track"}' });
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(createHmac('sha1', 's3cret').update('{"type":"track"}').digest('hex'));
    expect(r.stderr).toBe('');
  });
});
