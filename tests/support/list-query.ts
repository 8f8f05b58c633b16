/**
 * A list_ads query as the tests write it: the fields of its one argument, p_query, in camelCase. Absent and null
 * mean the same to list_ads (no filter, or the default).
 */
export interface ListQuery {
  board?: string | null;
  brandIds?: string[] | null;
  categoryIds?: string[] | null;
  typeIds?: string[] | null;
  tagIds?: string[] | null;
  since?: string | null;
  search?: string | null;
  cursor?: string | null;
  platforms?: string[] | null;
  format?: string | null;
  offer?: string | null;
  hookIds?: string[] | null;
  language?: string | null;
  country?: string | null;
  minRunningDays?: number | null;
  stillRunning?: boolean | null;
  sort?: string | null;
  colour?: string | null;
}

const snakeCase = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** The p_query object of a query: its fields in snake_case (brand_ids, tag_ids, min_running_days ...), undefined ones left out. */
export function listQuery(query: ListQuery): Record<string, unknown> {
  return Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined).map(([name, value]) => [snakeCase(name), value]));
}

/** The statement a test lists ads with; its one parameter is listQueryParameter's text. */
export const listAdsStatement = 'select public.list_ads($1::jsonb) as page';

/** The parameter of listAdsStatement for a query. */
export const listQueryParameter = (query: ListQuery): string => JSON.stringify(listQuery(query));
