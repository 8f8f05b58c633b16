import { access, constants, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { migrate } from '../local/db/migrate.ts';
import { openPglite } from '../local/db/pglite.ts';
import { buildSpa, spaNeedsBuild } from '../local/spa-build.ts';
import { projectRoot } from '../local/stack.ts';
import { CHROMIUM_PATH } from './support/chromium.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated PGlite data folder that each journey file's stack starts from a copy of. */
    e2ePgliteTemplate: string;
  }
}

/**
 * Before any journey: Debian's Chromium is there, dist/ holds a build of the
 * current SPA sources, and the migrations have run once into a PGlite folder.
 */
export default async function setup(project: TestProject) {
  await access(CHROMIUM_PATH, constants.X_OK).catch(() => {
    throw new Error(`Chromium is missing at ${CHROMIUM_PATH}: run scripts/ensure-chromium.sh (as root) first.`);
  });
  if (await spaNeedsBuild(projectRoot)) {
    console.log('Building the SPA for the journeys…');
    await buildSpa(projectRoot);
  }
  const templateRoot = await mkdtemp(path.join(os.tmpdir(), 'obyect-e2e-template-'));
  const template = path.join(templateRoot, 'pglite');
  const db = await openPglite({ dataDir: template });
  try {
    await migrate(db);
  } finally {
    await db.close();
  }
  project.provide('e2ePgliteTemplate', template);
  return async () => {
    await rm(templateRoot, { recursive: true, force: true });
  };
}
