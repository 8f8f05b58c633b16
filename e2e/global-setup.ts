import { access, constants } from 'node:fs/promises';
import type { TestProject } from 'vitest/node';
import { buildSpa, spaNeedsBuild } from '../local/spa-build.ts';
import { projectRoot } from '../local/stack.ts';
import { migratedPglite } from '../tests/support/migrated-pglite.ts';
import { CHROMIUM_PATH } from './support/chromium.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated PGlite data folder that each journey file's stack starts from a copy of. */
    e2ePgliteTemplate: string;
  }
}

/**
 * Before any journey: Debian's Chromium is there, dist/ holds a build of the
 * current SPA sources, and a migrated PGlite folder is there (made once for
 * each version of the migrations: tests/support/migrated-pglite.ts).
 */
export default async function setup(project: TestProject) {
  await access(CHROMIUM_PATH, constants.X_OK).catch(() => {
    throw new Error(`Chromium is missing at ${CHROMIUM_PATH}: run scripts/ensure-chromium.sh (as root) first.`);
  });
  if (await spaNeedsBuild(projectRoot)) {
    console.log('Building the SPA for the journeys…');
    await buildSpa(projectRoot);
  }
  project.provide('e2ePgliteTemplate', (await migratedPglite()).folder);
}
