import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

/** Debian's Chromium (scripts/ensure-chromium.sh installs it); Playwright downloads no browser of its own here. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/** Flags for a headless, sandbox-less Chromium that reaches nothing but the local stack. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface LaunchedChromium {
  context: BrowserContext;
  close(): Promise<void>;
}

/**
 * One browser with a fresh profile: Playwright takes a user data dir only
 * through launchPersistentContext, whose one context is the browser's.
 */
export async function launchChromium(options: { baseURL: string }): Promise<LaunchedChromium> {
  const userDataDir = await mkdtemp(path.join(os.tmpdir(), 'obyect-chromium-'));
  try {
    const context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: CHROMIUM_ARGS,
      baseURL: options.baseURL,
      viewport: { width: 1280, height: 900 },
      locale: 'en-US',
      timezoneId: 'UTC',
    });
    // Journeys wait for the app, never for long: a missing element fails in seconds, not minutes.
    context.setDefaultTimeout(15_000);
    return {
      context,
      async close() {
        await context.close().catch(() => {});
        await rm(userDataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(userDataDir, { recursive: true, force: true });
    throw error;
  }
}
