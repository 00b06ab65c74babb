// The emulator's main entry is what its users call: helpers the emulator uses inside (the audience
// trait's snake_case, the retry schedule, the loopback check, the CLI's progress line) stay inside, so
// changing them breaks no one.
import * as emulator from '@hookgate/emulator';
import { expect, it } from 'vitest';

it('exports none of its internal helpers', () => {
  const exported = Object.keys(emulator);
  for (const name of ['snakeCase', 'backoffDelay', 'isLoopbackHost', 'formatProgressLine']) {
    expect(exported).not.toContain(name);
  }
  expect(exported).toContain('createEmulator');
});
