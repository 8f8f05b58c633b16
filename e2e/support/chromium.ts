import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions } from 'playwright-core';

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

/** What every journey's browser context is: a desktop window, US English, UTC. */
const contextOptions = (baseURL: string): BrowserContextOptions => ({
  baseURL,
  viewport: { width: 1280, height: 900 },
  locale: 'en-US',
  timezoneId: 'UTC',
});

/** Journeys wait for the app, never for long: a missing element fails in seconds, not minutes. */
const JOURNEY_TIMEOUT_MS = 15_000;

/**
 * One Chromium for a file's journeys (Playwright gives it a fresh profile of
 * its own); each journey gets a context of its own in it (newJourneyContext),
 * which shares no cookies, storage or cache with another.
 */
export function launchSharedChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
}

export async function newJourneyContext(browser: Browser, baseURL: string, options: BrowserContextOptions = {}): Promise<BrowserContext> {
  const context = await browser.newContext({ ...contextOptions(baseURL), ...options });
  context.setDefaultTimeout(JOURNEY_TIMEOUT_MS);
  return context;
}

export interface LaunchedChromium {
  context: BrowserContext;
  close(): Promise<void>;
}

/**
 * A browser of its own with a fresh profile, for a journey that needs a second
 * browser beside its page's: Playwright takes a user data dir only
 * through launchPersistentContext, whose one context is the browser's.
 */
export async function launchChromium(options: { baseURL: string }): Promise<LaunchedChromium> {
  const userDataDir = await mkdtemp(path.join(os.tmpdir(), 'obyect-chromium-'));
  try {
    const context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: CHROMIUM_ARGS,
      ...contextOptions(options.baseURL),
    });
    context.setDefaultTimeout(JOURNEY_TIMEOUT_MS);
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
