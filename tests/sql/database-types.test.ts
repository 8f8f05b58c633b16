import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, it } from 'vitest';
import { databaseTypes } from '../../local/db/database-types.ts';
import { describeOnEngines } from '../support/engines.ts';

const committed = path.resolve(import.meta.dirname, '../../src/lib/database.types.ts');

/** The SPA's Database type is what the migrations make: regenerate it with `npm run db:types` after a change. */
describeOnEngines('src/lib/database.types.ts', (ctx) => {
  it('is the type the migrated database gives', async () => {
    const generated = await databaseTypes(ctx.db);
    expect(generated).toContain('list_ads: {');
    expect(generated, 'src/lib/database.types.ts is out of date: run npm run db:types').toBe(await readFile(committed, 'utf8'));
  });
});
