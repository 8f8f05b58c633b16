import { mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { test } from 'vitest';
import type { Browser, BrowserContextOptions } from 'playwright-core';
import { launchSharedChromium, newJourneyContext } from './chromium.ts';
import { startE2eStack, type E2eStack } from './e2e-stack.ts';

/** Where failed journeys leave a screenshot of the page as it was. */
export const SCREENSHOT_DIR = process.env.E2E_SCREENSHOT_DIR ?? path.join(os.tmpdir(), 'obyect-e2e-screenshots');

/** Console errors a journey has said it provokes on purpose (a refused sign-in logs its failed request). */
const expectedConsoleErrors = new WeakMap<Page, RegExp[]>();

/**
 * Says that this page will log console errors matching `pattern` as part of
 * the journey (the browser logs every 4xx answer); any other still fails it.
 */
export function expectConsoleErrors(page: Page, pattern: RegExp): void {
  expectedConsoleErrors.set(page, [...(expectedConsoleErrors.get(page) ?? []), pattern]);
}

const fileName = (title: string) => `${title.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '').toLowerCase()}-${Date.now()}.png`;

export interface JourneyFixtures {
  /** The local stack of this file, with demo ads. */
  stack: E2eStack;
  /** The file's Chromium: each journey's page is in a context of its own in it. */
  chromium: Browser;
  /**
   * What the journey's context differs in from a 1280 x 900 desktop window (a phone: viewport, isMobile, hasTouch);
   * set with journey.override({ contextOptions }) in a describe.
   */
  contextOptions: BrowserContextOptions;
  /** A page in a fresh browser context (no cookies, storage or cache of another journey) pointed at the stack. */
  page: Page;
}

/**
 * Journeys: one stack and one Chromium per file, a fresh context per test
 * (0.2 s, where launching a browser takes 0.6). A page error or a
 * console error fails the test; a failed test leaves a screenshot.
 */
export const journey = test.extend<JourneyFixtures>({
  stack: [
    async ({}, use) => {
      const stack = await startE2eStack();
      try {
        await use(stack);
      } finally {
        await stack.stop();
      }
    },
    { scope: 'file' },
  ],
  chromium: [
    async ({}, use) => {
      const browser = await launchSharedChromium();
      try {
        await use(browser);
      } finally {
        await browser.close().catch(() => {});
      }
    },
    { scope: 'file' },
  ],
  contextOptions: {},
  page: async ({ stack, chromium, contextOptions, task }, use) => {
    // A journey's second try (e2e/vitest.config.ts) says so, with what failed the first.
    if ((task.result?.retryCount ?? 0) > 0) {
      console.error(`RETRIED: "${task.name}" failed and runs once more. It failed with: ${task.result?.errors?.[0]?.message ?? 'no message'}`);
    }
    const context = await newJourneyContext(chromium, stack.url, contextOptions);
    const problems: string[] = [];
    try {
      const page = await context.newPage();
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      page.on('console', (message) => {
        if (message.type() !== 'error') return;
        if ((expectedConsoleErrors.get(page) ?? []).some((pattern) => pattern.test(message.text()))) return;
        problems.push(`console error: ${message.text()}`);
      });
      await use(page);
      if (task.result?.state === 'fail' || problems.length > 0) {
        await mkdir(SCREENSHOT_DIR, { recursive: true });
        const file = path.join(SCREENSHOT_DIR, fileName(task.name));
        await page.screenshot({ path: file, fullPage: true }).then(
          () => console.error(`Screenshot of the failed journey "${task.name}": ${file}`),
          (error: unknown) => console.error(`No screenshot of "${task.name}": ${(error as Error).message}`),
        );
      }
      if (problems.length > 0) throw new Error(`The page reported errors:\n${problems.join('\n')}`);
    } finally {
      await context.close().catch(() => {});
    }
  },
});

/**
 * Journeys whose file needs more in the library than the stack's few demo
 * ads: `library` runs the seed once per file, on that file's stack.
 */
export function journeyWithLibrary<Library>(seed: (stack: E2eStack) => Promise<Library>) {
  return journey.extend<{ library: Library }>({
    library: [
      async ({ stack }: { stack: E2eStack }, use: (library: Library) => Promise<void>) => {
        await use(await seed(stack));
      },
      // Auto: a journey that never names the library still browses the seeded one.
      { scope: 'file', auto: true },
    ],
  });
}
