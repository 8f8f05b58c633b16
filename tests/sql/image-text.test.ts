import { beforeAll, describe, expect, it } from 'vitest';
import { describeOnEngines } from '../support/engines.ts';
import { anon, expectPgError, queryAs, userActor, type Actor } from '../support/acting.ts';
import { newAds, newBrand, newCategory, newPersonas, type Personas, type TestAd } from '../support/factories.ts';

interface Worklist {
  ads: Array<{ id: string; created_at: string; display_960_url: string }>;
  remaining: number;
  next: { created_at: string; id: string } | null;
}

describeOnEngines('the text read from ad images', (ctx) => {
  let people: Personas;
  let admin: Actor;
  let ads: TestAd[];

  const worklist = async (actor: Actor, after: Worklist['next'] = null, limit = 50) =>
    (
      await queryAs<{ page: Worklist }>(ctx.db, actor, 'select public.admin_ads_without_image_text($1, $2, $3) as page', [
        after?.created_at ?? null,
        after?.id ?? null,
        limit,
      ])
    )[0]!.page;
  const setTexts = (actor: Actor, texts: unknown) =>
    queryAs<{ written: number }>(ctx.db, actor, 'select public.admin_set_image_texts($1::jsonb) as written', [JSON.stringify(texts)]);
  const textOf = async (id: string) =>
    (await ctx.db.query<{ image_text: string | null }>('select image_text from public.ads where id = $1', [id])).rows[0]!.image_text;

  beforeAll(async () => {
    people = await newPersonas(ctx.db);
    admin = userActor(people.admin);
    const brandId = (await newBrand(ctx.db)).id;
    const categoryId = (await newCategory(ctx.db)).id;
    // Only this file's ads are unread.
    await ctx.db.query(`update public.ads set image_text = ''`);
    ads = await newAds(ctx.db, 5, { brandId, categoryId, startAt: '2026-02-01T00:00:00Z' });
  });

  describe('admin_ads_without_image_text', () => {
    it('is refused to anonymous visitors, free accounts and subscribers', async () => {
      for (const actor of [userActor(people.free), userActor(people.subscriber), userActor(people.trialing)]) {
        await expectPgError(worklist(actor), { code: '42501', detail: 'admin_required' });
      }
      await expectPgError(worklist(anon), { code: '42501' });
    });

    it('walks the unread ads newest first, a bounded page at a time, with a link to each 960 image', async () => {
      const first = await worklist(admin, null, 2);
      expect(first.remaining).toBe(5);
      expect(first.ads.map((ad) => ad.id)).toEqual([ads[0]!.id, ads[1]!.id]);
      expect(first.ads[0]!.display_960_url).toMatch(new RegExp(`^object/sign/ad-images/${ads[0]!.display_960_path}\\?token=`));
      expect(first.next).toEqual({ created_at: first.ads[1]!.created_at, id: ads[1]!.id });
      const second = await worklist(admin, first.next, 2);
      expect(second.ads.map((ad) => ad.id)).toEqual([ads[2]!.id, ads[3]!.id]);
      const last = await worklist(admin, second.next, 2);
      expect(last.ads.map((ad) => ad.id)).toEqual([ads[4]!.id]);
      expect(last.next).toBeNull();
      const all = await worklist(admin);
      expect(all.ads).toHaveLength(5);
      expect(all.next).toBeNull();
    });

    it('refuses pages out of bounds and half a cursor', async () => {
      await expectPgError(worklist(admin, null, 0), { detail: 'invalid_limit' });
      await expectPgError(worklist(admin, null, 101), { detail: 'invalid_limit' });
      await expectPgError(queryAs(ctx.db, admin, 'select public.admin_ads_without_image_text(now(), null, 10)'), { detail: 'invalid_cursor' });
    });
  });

  describe('admin_set_image_texts', () => {
    it('is refused to anonymous visitors, free accounts and subscribers, and changes nothing', async () => {
      for (const actor of [userActor(people.free), userActor(people.subscriber)]) {
        await expectPgError(setTexts(actor, [{ id: ads[4]!.id, text: 'X' }]), { code: '42501', detail: 'admin_required' });
      }
      await expectPgError(setTexts(anon, [{ id: ads[4]!.id, text: 'X' }]), { code: '42501' });
      expect(await textOf(ads[4]!.id)).toBeNull();
    });

    it('stores the texts of several ads, trimmed, and the worklist no longer holds them', async () => {
      const [row] = await setTexts(admin, [
        { id: ads[0]!.id, text: '  GLOW SERUM 30% OFF ' },
        { id: ads[1]!.id, text: '' },
      ]);
      expect(row!.written).toBe(2);
      expect(await textOf(ads[0]!.id)).toBe('GLOW SERUM 30% OFF');
      expect(await textOf(ads[1]!.id)).toBe('');
      const page = await worklist(admin);
      expect(page.remaining).toBe(3);
      expect(page.ads.map((ad) => ad.id)).not.toContain(ads[0]!.id);
      expect((await setTexts(admin, []))[0]!.written).toBe(0);
    });

    it('is all or nothing: an unknown ad, a text too long, a duplicate or a malformed entry changes no row', async () => {
      const id = ads[2]!.id;
      await expectPgError(setTexts(admin, [{ id, text: 'A' }, { id: '00000000-0000-4000-8000-000000000000', text: 'B' }]), { code: 'PT404', detail: 'not_found' });
      await expectPgError(setTexts(admin, [{ id, text: 'A' }, { id: ads[3]!.id, text: 'x'.repeat(5001) }]), { detail: 'invalid_image_texts' });
      await expectPgError(setTexts(admin, [{ id, text: 'A' }, { id, text: 'B' }]), { detail: 'invalid_image_texts' });
      await expectPgError(setTexts(admin, [{ id, text: 'A' }, { id: 'not-a-uuid', text: 'B' }]), { detail: 'invalid_image_texts' });
      await expectPgError(setTexts(admin, [{ id, text: 7 }]), { detail: 'invalid_image_texts' });
      await expectPgError(setTexts(admin, { id, text: 'A' }), { detail: 'invalid_image_texts' });
      expect(await textOf(id)).toBeNull();
      expect(await textOf(ads[3]!.id)).toBeNull();
      // 5000 characters are taken.
      expect((await setTexts(admin, [{ id, text: 'x'.repeat(5000) }]))[0]!.written).toBe(1);
    });

    it('takes 100 texts in one call at most', async () => {
      const many = Array.from({ length: 101 }, (_, i) => ({ id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, text: 'A' }));
      await expectPgError(setTexts(admin, many), { detail: 'too_many_image_texts' });
      // 100 is within the bound: refused here only because those ads do not exist.
      await expectPgError(setTexts(admin, many.slice(0, 100)), { detail: 'not_found' });
    });
  });
});
