// Debian's chromium driven by playwright-core (no browser download): one browser per test file.
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM_PATH = process.env.HOOKGATE_CHROMIUM ?? '/usr/bin/chromium';

export interface RunningBrowser {
  browser: Browser;
  close(): Promise<void>;
}

/**
 * Launches headless chromium. `chromium.launch` gives every launch a fresh temporary profile
 * (`--user-data-dir` in a new temp directory, removed on close); it refuses one passed by hand.
 */
export async function launchChromium(): Promise<RunningBrowser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return { browser, close: () => browser.close() };
}
