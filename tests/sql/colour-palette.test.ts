import { expect, it } from 'vitest';
import { COLOUR_SWATCHES } from '../../src/lib/colour-swatches.ts';
import { describeOnEngines } from '../support/engines.ts';

/**
 * The filter bar's palette is written twice, in the SPA (src/lib/colour-swatches.ts, which offers it) and in the
 * database (private.colour_palette, supabase/schemas/50_media.sql, which decides the matches): they are the same.
 */
describeOnEngines('the colour palette', (ctx) => {
  it('holds in the database exactly the swatches the filter bar offers, with the same colours', async () => {
    const { rows } = await ctx.db.query<{ name: string; hex: string }>('select name, hex from private.colour_palette order by name');
    const offered = COLOUR_SWATCHES.map(({ id, hex }) => ({ name: id, hex })).sort((a, b) => a.name.localeCompare(b.name));
    expect(rows).toEqual(offered);
  });
});
