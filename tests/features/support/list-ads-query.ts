import { expect } from 'vitest';
import { fakeSupabase } from './fake-supabase.ts';

/** The fields of list_ads' one argument, p_query: the only ones the server takes. */
const LIST_ADS_FIELDS = [
  'board', 'brand_ids', 'category_ids', 'type_ids', 'tag_ids', 'since', 'search', 'cursor', 'platforms', 'format', 'offer',
  'hook_ids', 'language', 'country', 'min_running_days', 'still_running', 'sort', 'colour',
] as const;

/** A list_ads query as the server reads it: every field named. */
export interface ListAdsQuery {
  board: string;
  brand_ids: string[] | null;
  category_ids: string[] | null;
  type_ids: string[] | null;
  tag_ids: string[] | null;
  since: string | null;
  search: string | null;
  cursor: string | null;
  platforms: string[] | null;
  format: string | null;
  offer: string | null;
  hook_ids: string[] | null;
  language: string | null;
  country: string | null;
  min_running_days: number | null;
  still_running: boolean | null;
  sort: string;
  colour: string | null;
}

/**
 * The query of one list_ads call, as list_ads reads it: the call's only argument is p_query, an object of the fields
 * list_ads knows; a field left out reads as null (as a null one does), board as 'library' and sort as 'newest', and
 * still_running false as null (only true filters). Any other argument or field fails the test, as the server
 * refuses it.
 */
export function listAdsQuery(args: Record<string, unknown>): ListAdsQuery {
  expect(Object.keys(args), 'the arguments of list_ads').toEqual(['p_query']);
  const query = args.p_query;
  if (typeof query !== 'object' || query === null || Array.isArray(query)) throw new Error(`p_query is not an object: ${JSON.stringify(query)}`);
  const sent = query as Record<string, unknown>;
  expect(Object.keys(sent).filter((field) => !(LIST_ADS_FIELDS as readonly string[]).includes(field)), 'fields list_ads does not know').toEqual([]);
  const read = Object.fromEntries(LIST_ADS_FIELDS.map((field) => [field, sent[field] ?? null])) as Record<(typeof LIST_ADS_FIELDS)[number], unknown>;
  return {
    ...read,
    board: read.board ?? 'library',
    sort: read.sort ?? 'newest',
    still_running: read.still_running === false ? null : read.still_running,
  } as ListAdsQuery;
}

/** The queries of every list_ads call made so far, in order. */
export const listAdsQueries = () => fakeSupabase.callsOf('list_ads').map(listAdsQuery);

/** The query of the last list_ads call. */
export const lastListAdsQuery = () => {
  const queries = listAdsQueries();
  if (queries.length === 0) throw new Error('list_ads was not called');
  return queries.at(-1)!;
};
