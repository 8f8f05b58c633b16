import { expect, it } from 'vitest';
import { describeOnEngines } from '../support/engines.ts';

describeOnEngines('what the service role may execute', (ctx) => {
  const executable = async (signature: string) =>
    (await ctx.db.query<{ ok: boolean }>(`select has_function_privilege('service_role', $1, 'execute') as ok`, [signature])).rows[0]!.ok;

  it('cannot execute the functions that need a signed-in admin or subscriber, which would only refuse it', async () => {
    for (const signature of [
      'public.get_ads_admin(integer, integer, text, uuid, uuid, uuid, uuid[], date, date, text)',
      'public.admin_update_ads(uuid[], uuid, uuid, text, uuid, uuid[], uuid[], jsonb)',
      'public.admin_delete_ads(uuid[])',
      'public.get_ad_neighbours(uuid)',
    ]) {
      expect(await executable(signature), signature).toBe(false);
    }
  });

  it('executes the daily tagging job and the listing', async () => {
    expect(await executable('public.tag_ads_of_day(date)')).toBe(true);
    expect(await executable('public.list_ads(jsonb)')).toBe(true);
  });
});
