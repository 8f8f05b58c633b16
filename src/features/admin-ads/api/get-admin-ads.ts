import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { apiErrorFrom } from '../../../lib/api-error.ts';
import { ADMIN_PAGE_SIZE } from '../../../lib/constants.ts';
import { supabase } from '../../../lib/supabase-client.ts';
import { getAdminAdFacts, type AdminAdFacts } from './get-admin-ad-facts.ts';

export const ADMIN_SORTS = ['newest', 'oldest', 'brand_asc', 'brand_desc'] as const;
export type AdminSort = (typeof ADMIN_SORTS)[number];

export interface AdminAdsQuery {
  search: string;
  brandId: string | null;
  categoryId: string | null;
  typeId: string | null;
  tagIds: string[];
  /** YYYY-MM-DD, whole UTC days, both included. */
  dateFrom: string | null;
  dateTo: string | null;
  sort: AdminSort;
  /** Zero-based. */
  page: number;
}

export const adminAdSchema = z.object({
  id: z.string().check(z.minLength(1)),
  brand_id: z.string(),
  brand_name: z.string(),
  brand_logo_path: z.nullable(z.string()),
  category_id: z.string(),
  category_name: z.string(),
  type_id: z.nullable(z.string()),
  type_name: z.nullable(z.string()),
  tag_ids: z.array(z.string()),
  tag_names: z.array(z.string()),
  created_at: z.string(),
  width: z.number().check(z.int()),
  height: z.number().check(z.int()),
  thumbhash: z.string(),
  preview_path: z.string(),
  display_480_path: z.string(),
  display_960_path: z.string(),
  original_path: z.string(),
  total_count: z.coerce.number().check(z.int()),
});

/** What admin_ad_images adds to each row: free-sample membership and signed links to the display variants. */
const adminAdImagesSchema = z.array(z.object({
  id: z.string(),
  free_sample: z.boolean(),
  display_480_url: z.string(),
  display_960_url: z.string(),
}));

export type AdminAd = z.infer<typeof adminAdSchema> &
  z.infer<typeof adminAdImagesSchema>[number] & {
    /** The ad's facts (admin_ad_facts). */
    facts: AdminAdFacts | null;
  };

export interface AdminAdsPage {
  ads: AdminAd[];
  total: number;
}

/** get_ads_admin's arguments for a query; `page` and `limit` choose the rows. */
export function adminAdsArgs(query: Omit<AdminAdsQuery, 'page'>, offset: number, limit: number) {
  const search = query.search.trim();
  return {
    p_limit: limit,
    p_offset: offset,
    p_search: search === '' ? null : search,
    p_brand: query.brandId,
    p_category: query.categoryId,
    p_type: query.typeId,
    p_tag_ids: query.tagIds.length > 0 ? query.tagIds : null,
    p_date_from: query.dateFrom,
    p_date_to: query.dateTo,
    p_sort: query.sort,
  };
}

/** One page (50 ads) of the admin table; the server refuses anyone but an admin (42501). */
export async function getAdminAds(query: AdminAdsQuery): Promise<AdminAdsPage> {
  const { data, error } = await supabase.rpc('get_ads_admin', adminAdsArgs(query, query.page * ADMIN_PAGE_SIZE, ADMIN_PAGE_SIZE));
  if (error) throw apiErrorFrom(error);
  const rows = z.array(adminAdSchema).parse(data);
  const ids = rows.map((row) => row.id);
  const [images, facts] = await Promise.all([getAdminAdImages(ids), getAdminAdFacts(ids)]);
  const ads = rows.flatMap((row) => {
    const image = images.get(row.id);
    // An ad deleted between the calls is left out.
    return image ? [{ ...row, ...image, facts: facts.get(row.id) ?? null }] : [];
  });
  return { ads, total: rows[0]?.total_count ?? 0 };
}

async function getAdminAdImages(ids: string[]) {
  if (ids.length === 0) return new Map<string, z.infer<typeof adminAdImagesSchema>[number]>();
  const { data, error } = await supabase.rpc('admin_ad_images', { p_ids: ids });
  if (error) throw apiErrorFrom(error);
  return new Map(adminAdImagesSchema.parse(data).map((image) => [image.id, image]));
}

/** Under 'ads', so every change to ads refreshes the table too. */
export function adminAdsQueryOptions(query: AdminAdsQuery) {
  return queryOptions({ queryKey: ['ads', 'admin', query], queryFn: () => getAdminAds(query), staleTime: 0, placeholderData: keepPreviousData });
}

export function useAdminAds(query: AdminAdsQuery, enabled: boolean) {
  return useQuery({ ...adminAdsQueryOptions(query), enabled });
}

/** Pages in the table: at least one, so an empty result reads 'Page 1 of 1'. */
export function pageCount(total: number): number {
  return Math.max(1, Math.ceil(total / ADMIN_PAGE_SIZE));
}
