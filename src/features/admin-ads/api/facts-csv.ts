import { useMutation, useQueryClient } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { AD_LISTS_KEY } from '../../../lib/ad-list-cache.ts';
import { apiErrorFrom } from '../../../lib/api-error.ts';
import { supabase } from '../../../lib/supabase-client.ts';
import { factsCsv, FACTS_CSV_MAX_ROWS, type ImportChange, type ImportRowError } from '../lib/facts-csv.ts';
import { adminAdSchema, adminAdsArgs, type AdminAdsQuery } from './get-admin-ads.ts';
import { getAdminAdFacts } from './get-admin-ad-facts.ts';

/** get_ads_admin's largest page. */
const EXPORT_PAGE = 100;

export interface FactsExport {
  csv: string;
  exported: number;
  /** Every ad matching the filters, exported or not. */
  total: number;
}

/** The ads matching the table's filters, in its order, up to FACTS_CSV_MAX_ROWS, as the facts file. */
export async function exportFactsCsv(query: Omit<AdminAdsQuery, 'page'>): Promise<FactsExport> {
  const ads: z.infer<typeof adminAdSchema>[] = [];
  let total = 0;
  while (ads.length < FACTS_CSV_MAX_ROWS) {
    const limit = Math.min(EXPORT_PAGE, FACTS_CSV_MAX_ROWS - ads.length);
    const { data, error } = await supabase.rpc('get_ads_admin', adminAdsArgs(query, ads.length, limit));
    if (error) throw apiErrorFrom(error);
    const rows = z.array(adminAdSchema).parse(data);
    ads.push(...rows);
    total = rows[0]?.total_count ?? total;
    if (rows.length < limit) break;
  }
  const facts = await getAdminAdFacts(ads.map((ad) => ad.id));
  // An ad deleted between the calls is left out.
  const exported = ads.flatMap((ad) => {
    const found = facts.get(ad.id);
    return found ? [{ ad, facts: found }] : [];
  });
  return { csv: factsCsv(exported), exported: exported.length, total: Math.max(total, exported.length) };
}

/** Hands the browser the file to save. */
export function downloadCsv(csv: string, fileName: string): void {
  const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

const importAnswerSchema = z.object({
  updated: z.number().check(z.int()),
  errors: z.array(z.object({ index: z.number().check(z.int()), code: z.string(), rule: z.nullable(z.string()) })),
});

export type ImportResult = { ok: true; updated: number } | { ok: false; errors: ImportRowError[] };

/**
 * The changes of a previewed file in one call (admin_import_ad_facts): every
 * ad is written or none is. A refusal names the rows by their number in the file.
 */
export async function importAdFacts(changes: readonly ImportChange[]): Promise<ImportResult> {
  const { data, error } = await supabase.rpc('admin_import_ad_facts', { p_rows: changes.map(({ id, facts }) => ({ id, facts })) });
  if (error) throw apiErrorFrom(error);
  const answer = importAnswerSchema.parse(data);
  if (answer.errors.length === 0) return { ok: true, updated: answer.updated };
  return {
    ok: false,
    errors: answer.errors.map((refusal) => ({ row: changes[refusal.index]?.row ?? refusal.index + 2, code: 'server', serverCode: refusal.code, constraint: refusal.rule })),
  };
}

export function useImportAdFacts() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: importAdFacts,
    onSettled: () => queryClient.invalidateQueries({ queryKey: AD_LISTS_KEY }),
  });
}
