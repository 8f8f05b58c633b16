import type { Queryable } from '../local/db/database.ts';
import { grantAdmin, newSubscription, newUser, type TestUser } from '../tests/support/factories.ts';

const BRANDS = [
  'Aurora Threads', 'Basil & Bloom', 'Cedar Trail', 'Driftwood Coffee', 'Ember Candle Co', 'Fable Kids', 'Glow Theory',
  'Harbor Socks', 'Indigo Denim', 'Juniper Yoga', 'Kettle & Crumb', 'Lumen Skincare', 'Meadow Pet', 'Nimbus Sleep',
  'Orchard Juice', 'Pebble Audio', 'Quill Paper', 'Rove Luggage', 'Saffron Kitchen', 'Tidal Swim', 'Umber Leather',
  'Velvet Hour', 'Willow Tea', 'Xeno Fitness', 'Yonder Outdoors', 'Zest Snacks', 'Amber Optics', 'Bolt Bikes',
  'Cove Linen', 'Dune Fragrance', 'Echo Earbuds', 'Fern Haircare', 'Grove Vitamins', 'Halo Jewelry', 'Iris Eyewear',
  'Jade Matcha', 'Koa Surf', 'Loom Rugs', 'Maple Baby', 'Nova Gaming', 'Oak Furniture', 'Pine Grooming',
  'Quartz Watches', 'Rise Bakery', 'Sol Sunscreen', 'Terra Plants', 'Unity Bank', 'Vale Wine', 'Wave Water',
  'Yuzu Beauty',
];
const CATEGORIES = [
  'Beauty', 'Fashion', 'Food & Drink', 'Health & Wellness', 'Home & Living', 'Pets', 'Fitness', 'Tech & Gadgets',
  'Travel', 'Kids & Baby', 'Finance', 'Jewelry & Accessories',
];
const TYPES = ['Static Image', 'Video', 'Carousel', 'UGC', 'Motion Graphic', 'Story'];
const TAGS = [
  'Testimonial', 'Before & After', 'Discount Offer', 'Free Shipping', 'Bundle', 'Unboxing', 'Founder Story',
  'Social Proof', 'Comparison', 'Holiday', 'Limited Edition', 'Giveaway', 'Subscription Offer', 'New Launch',
  'Bestseller', 'Minimalist', 'Bold Colors', 'Lifestyle', 'Product Shot', 'Meme', 'Listicle', 'How To', 'Review',
  'Influencer', 'Seasonal', 'Flash Sale', 'Eco Friendly', 'Luxury', 'Humor', 'Problem Solution',
];

const HOOKS = [
  'Problem / solution', 'Social proof', 'Scarcity', 'Curiosity', 'Price anchor', 'Before / after', 'Authority',
  'Humor', 'Fear of missing out', 'Transformation', 'Comparison', 'Storytelling',
];

/**
 * The words of the ads' copy, as realistic as a generator gets: headlines, primary texts and the words printed in
 * images, chosen per ad. 'snowfall' is printed in about one image in 200 and is found nowhere else: the search for
 * it reads the image text alone. 'ydrati' is inside 'hydrating' and begins no word: only the trigrams find it.
 */
const HEADLINES = [
  'Summer sale: up to 40% off', 'New arrivals are here', 'Free shipping on every order', 'The bundle everyone loves',
  'Made to last, priced to move', 'Your new favourite routine', 'Try it risk-free for 30 days', 'Back in stock',
  'The gift they will actually use', 'Hydrating care for dry skin', 'Limited edition colours', 'Rated 4.8 by 12,000 customers',
  'Crafted in small batches', 'Upgrade your morning', 'Less clutter, more calm', 'Designed for real life',
];
const PRIMARY_TEXTS = [
  'Thousands of happy customers switched this year. See why our bestseller keeps selling out.',
  'We spent two years testing materials so you do not have to. Comfortable from the first wear.',
  'Order today and get free delivery. Easy returns within 30 days, no questions asked.',
  'Hydrating formula with natural ingredients, gentle enough for every day and every skin type.',
  'Bundle and save: pick any three and get the fourth free. Offer ends Sunday at midnight.',
  'Our founder started in a garage with one idea. Today the whole family is in on it.',
  'Tired of products that break after a month? Ours come with a lifetime guarantee.',
  'Discover the collection that made us famous, now in twelve new shades for the season.',
];
const IMAGE_TEXTS = [
  'SALE 40% OFF', 'SHOP NOW', 'NEW COLLECTION', 'FREE SHIPPING', 'BUY 2 GET 1 FREE', 'LIMITED TIME ONLY', 'BEST SELLER',
  'ONLY TODAY', 'USE CODE WELCOME10', 'AS SEEN ON TV', 'TRY IT FREE', 'NOW AVAILABLE', 'BEFORE  AFTER', 'SOLD OUT SOON',
];

/** The three people's emails. */
const PEOPLE = {
  free: 'bench-free@example.test',
  subscriber: 'bench-subscriber@example.test',
  admin: 'bench-admin@example.test',
} as const;

/** What the cases filter and search by, chosen so each search matches what its name says. */
export const SEARCHES = {
  brandFragment: 'lumen',
  tagName: 'testimonial',
  oneLetter: 'a',
  imageTextOnly: 'snowfall',
  commonWord: 'sale',
  partialWord: 'ydrati',
  // Found in no ad: a search with a typo.
  noMatch: 'sunscrren',
  // A brand's name and a word of its ads: a search of several words.
  twoWords: 'lumen skincare',
} as const;

export interface Named {
  id: string;
  name: string;
}

export interface BenchData {
  adCount: number;
  brand: Named;
  category: Named;
  type: Named;
  tag: Named;
  secondTag: Named;
  hook: Named;
  /** Ads spread over the whole table, for get_ad and get_ad_neighbours. */
  sampleAdIds: string[];
  /** Those ads' fingerprints (hash and histogram), for the near-duplicate lookup an upload makes. */
  sampleFingerprints: { id: string; hash: string; histogram: number[]; colours: unknown }[];
  free: TestUser;
  subscriber: TestUser;
  admin: TestUser;
}

export interface SeedTimings {
  step: string;
  seconds: number;
}

async function insertNames(db: Queryable, table: string, names: readonly string[]): Promise<Named[]> {
  const result = await db.query<Named>(
    `insert into public.${table} (name) select unnest($1::text[]) returning id, name`,
    [names],
  );
  return result.rows;
}

function byName(rows: Named[], name: string): Named {
  const row = rows.find((candidate) => candidate.name === name);
  if (!row) throw new Error(`Seeded ${name} is missing`);
  return row;
}

async function timed(timings: SeedTimings[], step: string, fn: () => Promise<void>): Promise<void> {
  const started = performance.now();
  await fn();
  timings.push({ step, seconds: (performance.now() - started) / 1000 });
}

/**
 * Seeds the catalogue, three people and adCount ads with their facts and copy
 * in set-based SQL. Ads and their tags are written with triggers off
 * (session_replication_role = replica, as the owner), so what the triggers
 * would maintain is written here consistently: the board flags match the
 * system tags, ad_tags carry their ad's created_at, each ad's card is
 * private.ad_card's, its search text and words what ads_write_search writes,
 * the keys of the dated orders what ads_count_days writes, its colour vector
 * and swatches what ads_visual_fingerprint derives,
 * private.ad_counts holds the total and private.tag_ad_counts each tag's. No
 * storage.objects rows are written: only the trigger that is off requires them.
 */
export async function seedBench(db: Queryable, adCount: number): Promise<{ data: BenchData; timings: SeedTimings[] }> {
  const timings: SeedTimings[] = [];
  let brands: Named[] = [];
  let categories: Named[] = [];
  let types: Named[] = [];
  let tags: Named[] = [];
  let hooks: Named[] = [];
  let people: Pick<BenchData, 'free' | 'subscriber' | 'admin'> | undefined;

  await timed(timings, 'catalogue and people', async () => {
    brands = await insertNames(db, 'brands', BRANDS);
    categories = await insertNames(db, 'categories', CATEGORIES);
    types = await insertNames(db, 'types', TYPES);
    tags = await insertNames(db, 'tags', TAGS);
    hooks = await insertNames(db, 'hooks', HOOKS);
    const free = await newUser(db, { email: PEOPLE.free });
    const subscriber = await newUser(db, { email: PEOPLE.subscriber });
    const admin = await newUser(db, { email: PEOPLE.admin });
    await newSubscription(db, subscriber, 'active', { tier: 'annual' });
    await grantAdmin(db, admin);
    people = { free, subscriber, admin };
  });
  if (brands.length !== 50 || categories.length !== 12 || types.length !== 6 || tags.length !== 30 || hooks.length !== 12) {
    throw new Error('The benchmark catalogue must be 50 brands, 12 categories, 6 types, 30 tags and 12 hooks');
  }

  await db.exec('begin');
  try {
    await db.exec(`set local session_replication_role = replica; select setseed(0.2026);`);
    await timed(timings, `${adCount.toLocaleString('en-US')} ads`, async () => {
      // Ads arrive in created_at order over two years up to now, with their facts and copy; ids and image folders
      // look random. They are made
      // in a scratch table first, so their tags can be written before them and each card (private.ad_card, which
      // reads the ad's tags) is built as the ad is inserted: writing the cards afterwards would rewrite every row.
      await db.query(
        `create temporary table bench_ads on commit drop as
         select md5('bench-ad-' || g.i)::uuid as id,
                c.brand_ids[b.i] as brand_id,
                c.category_ids[1 + floor(random() * cardinality(c.category_ids))::int] as category_id,
                case when random() < 0.05 then null else c.type_ids[1 + floor(random() * cardinality(c.type_ids))::int] end as type_id,
                t.created_at,
                random() >= 0.1 as requires_subscription,
                random() < 0.08 as is_black_friday,
                random() < 0.05 as is_top_picks,
                f.folder || '/original.jpg' as original_path, f.folder || '/480.webp' as display_480_path,
                f.folder || '/960.webp' as display_960_path,
                'previews/' || md5('bench-preview-' || g.i) || '.webp' as preview_path,
                1080 as width, case when random() < 0.5 then 1350 else 1080 end as height,
                'YJqGPQw7sFlslqhFafSE+Q6oJ1h2iHB2Rw==' as thumbhash,
                case when d.first_seen is not null then nullif(array_remove(array[
                  case when random() < 0.6 then 'meta' end, case when random() < 0.5 then 'instagram' end,
                  case when random() < 0.25 then 'tiktok' end, case when random() < 0.1 then 'youtube' end,
                  case when random() < 0.05 then 'pinterest' end, case when random() < 0.04 then 'snapchat' end,
                  case when random() < 0.08 then 'google' end], null), '{}') end as platforms,
                case when random() < 0.05 then null
                     else (array['single_image', 'single_image', 'single_image', 'carousel', 'video', 'video'])[1 + floor(random() * 6)::int] end as format,
                (array['discount', 'discount', 'discount', 'free_shipping', 'bundle', 'none', 'none', 'none', null, null])[1 + floor(random() * 10)::int] as offer,
                case when random() < 0.7 then c.hook_ids[1 + floor(random() * cardinality(c.hook_ids))::int] end as hook_id,
                -- Half the ads in English for English-speaking markets, the rest in seven others; 5% unknown.
                case when m.m > 0 then (array['en', 'en', 'en', 'en', 'en', 'en', 'en', 'en', 'en', 'en', 'es', 'es', 'de', 'de', 'fr',
                                              'fr', 'pt', 'it', 'nl', 'sv'])[m.m] end as language,
                case when m.m > 0 then (array['US', 'US', 'US', 'US', 'GB', 'GB', 'CA', 'AU', 'IE', 'NZ', 'ES', 'MX', 'DE', 'AT', 'FR',
                                              'FR', 'BR', 'IT', 'NL', 'SE'])[m.m] end as country,
                d.first_seen, d.still_running,
                case when d.first_seen is null then null
                     when d.still_running then greatest(d.first_seen, c.today - floor(random() * 3)::int)
                     else least(c.today, d.first_seen + floor(-ln(1 - random()) * 35)::int) end as last_seen,
                case when random() < 0.05 then null else ($2::text[])[1 + floor(random() * cardinality($2::text[]))::int] end as headline,
                case when random() < 0.1 then null else ($3::text[])[1 + floor(random() * cardinality($3::text[]))::int] end as primary_text,
                case when random() < 0.05 then null
                     else 'https://' || c.brand_hosts[b.i] || (array['', '/sale', '/new', '/bundle'])[1 + floor(random() * 4)::int] end as landing_url,
                case when d.u < 0.3 then null when d.u < 0.45 then '' when d.u < 0.455 then 'SNOWFALL SALE'
                     else ($4::text[])[1 + floor(random() * cardinality($4::text[]))::int] end as image_text,
                v.visual_hash, v.colour_histogram, v.dominant_colours
           from generate_series(1, $1::int) g (i)
          cross join (select array(select id from public.brands order by name) as brand_ids,
                             array(select lower(regexp_replace(name, '[^A-Za-z]+', '', 'g')) || '.example' from public.brands order by name) as brand_hosts,
                             array(select id from public.categories order by name) as category_ids,
                             array(select id from public.types order by name) as type_ids,
                             array(select id from public.hooks order by name) as hook_ids,
                             (now() at time zone 'UTC')::date as today,
                             now() - interval '730 days' as oldest,
                             interval '730 days' / $1::int as step) c
          cross join lateral (select md5('bench-folder-' || g.i) as folder, 1 + floor(random() * 50)::int as i,
                                     c.oldest + (g.i - 1 + random()) * c.step as created_at) f
          cross join lateral (select f.i) b (i)
          cross join lateral (select case when random() < 0.05 then 0 else 1 + floor(random() * 20)::int end + 0 * g.i as m) m
          cross join lateral (select f.created_at) t (created_at)
          -- 8% have no dates; a first sighting up to three weeks before the ad was added; most ads of the last four
          -- months still run, few older ones do; an ended ad ran for about five weeks on average.
          cross join lateral (select case when r.dated then least(c.today, (t.created_at at time zone 'UTC')::date - floor(r.early * 21)::int) end as first_seen,
                                     r.dated and r.running < case when t.created_at > now() - interval '120 days' then 0.6 else 0.08 end as still_running,
                                     r.u
                                from (select random() >= 0.08 as dated, random() as early, random() as running, random() as u, g.i) r) d
          -- A visual fingerprint: a random hash, a peaked histogram and one to three colours, backgrounds (white,
          -- beige, black) commonest and purple rarest.
          cross join lateral (select (floor(random() * 4294967296)::bigint << 32) | floor(random() * 4294967296)::bigint as visual_hash,
                                     (select array_agg(round((h.v / h.total)::numeric, 4)::real order by h.n)
                                        from (select x.n, x.v, sum(x.v) over () as total
                                                from (select n, random() ^ 6 + 0.0001 + 0 * g.i as v from generate_series(1, 16) n) x) h) as colour_histogram,
                                     (select jsonb_agg(jsonb_build_object('hex', c.hex, 'share', c.share) order by c.k)
                                        from (select k, (array['#ffffff', '#f3ede2', '#e8d5b8', '#111111', '#1d3557', '#2e6fd8', '#d7263d',
                                                               '#f08a24', '#f4d03f', '#3a9d5d', '#ee7fb4', '#8a5a34', '#8e8e8e', '#7d4cdb'])
                                                       [least(14, 1 + floor(-ln(1 - random()) * 3.2)::int)] as hex,
                                                     round(((array[0.55, 0.3, 0.15])[k] + 0 * g.i)::numeric, 3) as share
                                                from generate_series(1, 1 + floor(random() * 3)::int) k) c) as dominant_colours) v`,
        [adCount, HEADLINES, PRIMARY_TEXTS, IMAGE_TEXTS],
      );
    });
    await timed(timings, 'ad tags', async () => {
      // 2 to 4 ordinary tags per ad: s, s+d, s+2d, s+3d modulo 30, with d chosen so that they are distinct.
      await db.query(
        `insert into public.ad_tags (ad_id, tag_id, ad_created_at)
         select a.id, c.tag_ids[1 + (h.s + j.j * h.d) % 30], a.created_at
           from bench_ads a
          cross join (select array(select id from public.tags where system_key is null order by name) as tag_ids) c
          cross join lateral (select abs(hashtext(a.id::text)::bigint) as x) hx
          cross join lateral (select (2 + hx.x % 3)::int as k, ((hx.x / 3) % 30)::int as s,
                                     (case when 1 + (hx.x / 90) % 29 in (10, 15, 20) then 2 + (hx.x / 90) % 29
                                           else 1 + (hx.x / 90) % 29 end)::int as d) h
          cross join lateral generate_series(0, h.k - 1) j (j)
         union all
         select a.id, (select id from public.tags where system_key = 'black_friday'), a.created_at
           from bench_ads a where a.is_black_friday
         union all
         select a.id, (select id from public.tags where system_key = 'top_picks'), a.created_at
           from bench_ads a where a.is_top_picks`,
      );
      await db.query(
        `insert into private.tag_ad_counts (tag_id, ads) select tag_id, count(*) from public.ad_tags group by tag_id`,
      );
    });
    // The search and fingerprint indexes are built once after the rows (as CREATE INDEX builds them) rather than row
    // by row: their own definitions, read from the database, dropped and made again.
    // ads_search_words exists where the rum extension does (docs/decisions/0071).
    const builtAfter = (
      await db.query<{ name: string }>(
        `select name from unnest($1::text[]) name where to_regclass('public.' || name) is not null`,
        [['ads_search', 'ads_search_words', 'ads_colour_point', 'ads_visual_hash']],
      )
    ).rows.map((row) => row.name);
    const indexDefinitions = (
      await db.query<{ def: string }>(`select pg_get_indexdef(('public.' || name)::regclass) as def from unnest($1::text[]) name`, [builtAfter])
    ).rows.map((row) => row.def);
    await db.exec(builtAfter.map((name) => `drop index public.${name};`).join(' '));
    await timed(timings, 'ads with their cards', async () => {
      await db.query(
        `insert into public.ads (id, brand_id, category_id, type_id, created_at, requires_subscription, is_black_friday,
                                 is_top_picks, original_path, display_480_path, display_960_path, preview_path, width,
                                 height, thumbhash, platforms, format, offer, hook_id, language, country, first_seen, last_seen, still_running,
                                 headline, primary_text, landing_url, image_text, card, search_text, search_vector,
                                 running_days_key, last_seen_key,
                                 free_sample, free_sample_since, visual_hash, colour_histogram, dominant_colours,
                                 visual_vector, colour_point, colour_swatches)
         select a.id, a.brand_id, a.category_id, a.type_id, a.created_at, a.requires_subscription, a.is_black_friday,
                a.is_top_picks, a.original_path, a.display_480_path, a.display_960_path, a.preview_path, a.width,
                a.height, a.thumbhash, a.platforms, a.format, a.offer, a.hook_id, a.language, a.country, a.first_seen, a.last_seen, a.still_running,
                a.headline, a.primary_text, a.landing_url, a.image_text, k.card, s.search_text, private.search_words(s.search_text),
                -- What the days trigger writes: the days ran (0 undated) and the last day seen (a running ad: today).
                coalesce(private.running_days(a.first_seen, a.last_seen, a.still_running), 0),
                case when a.still_running then greatest((now() at time zone 'UTC')::date, a.last_seen)
                     else coalesce(a.last_seen, '-infinity'::date) end,
                a.sampled, case when a.sampled then a.created_at end, a.visual_hash, a.colour_histogram, a.dominant_colours,
                -- What the fingerprint trigger derives (no hash is near another: near_duplicate_of stays null).
                extensions.cube(a.colour_histogram::double precision[]), private.colour_point(a.dominant_colours),
                private.colour_swatches(a.dominant_colours)
           from (select b.*, b.requires_subscription
                             and (row_number() over (partition by b.requires_subscription order by b.created_at, b.id) - 1) % 10 = 0
                               as sampled
                   from bench_ads b) a
          cross join lateral (select private.ad_card(jsonb_populate_record(null::public.ads, to_jsonb(a))) as card) k
          -- What the search trigger writes: private.ad_search_text reads the card.
          cross join lateral (select private.ad_search_text(jsonb_populate_record(null::public.ads, to_jsonb(a) || jsonb_build_object('card', k.card)))
                                       as search_text) s
          order by a.created_at`,
      );
      await db.query('update private.ad_counts set total = (select count(*) from public.ads)');
      // What the count triggers keep: the ads of each language and country (the filters' options).
      await db.query(
        `insert into private.ad_locale_counts (kind, code, ads)
         select l.kind, l.code, count(*)
           from public.ads a cross join lateral (values ('language', a.language), ('country', a.country)) l (kind, code)
          where l.code is not null
          group by l.kind, l.code`,
      );
      // The free sample as publishing would have chosen it: every tenth premium ad in publish order.
      await db.query(
        `update private.free_sample_counts set premium = (select count(*) from public.ads where requires_subscription),
                                               members = (select count(*) from public.ads where free_sample)`,
      );
    });
    await timed(timings, 'search and fingerprint indexes', async () => {
      await db.exec(`set local maintenance_work_mem = '256MB'; ${indexDefinitions.join('; ')}`);
    });
    await db.exec('commit');
  } catch (error) {
    // A rollback on a lost connection fails too; the first error is the one to report.
    await db.exec('rollback').catch(() => {});
    throw error;
  }

  await timed(timings, 'vacuum analyze', async () => {
    // Index-only scans (the admin counts) need the visibility map a vacuum writes.
    await db.exec('vacuum (analyze) public.ads');
    await db.exec('vacuum (analyze) public.ad_tags');
    await db.exec('analyze');
  });

  if (!people) throw new Error('People were not seeded');
  return { timings, data: await benchDataOf(db, adCount, { brands, categories, types, tags, hooks }, people) };
}

type Catalogue = Record<'brands' | 'categories' | 'types' | 'tags' | 'hooks', Named[]>;

async function benchDataOf(
  db: Queryable,
  adCount: number,
  catalogue: Catalogue,
  people: Pick<BenchData, 'free' | 'subscriber' | 'admin'>,
): Promise<BenchData> {
  const sample = await db.query<{ id: string }>(
    `select md5('bench-ad-' || (1 + (g * 7919) % $1::int))::text::uuid as id from generate_series(1, 200) g`,
    [adCount],
  );
  return {
    adCount,
    brand: byName(catalogue.brands, 'Lumen Skincare'),
    category: byName(catalogue.categories, 'Beauty'),
    type: byName(catalogue.types, 'Video'),
    tag: byName(catalogue.tags, 'Testimonial'),
    secondTag: byName(catalogue.tags, 'Free Shipping'),
    hook: byName(catalogue.hooks, 'Social proof'),
    sampleAdIds: sample.rows.map((row) => row.id),
    sampleFingerprints: (
      await db.query<{ id: string; hash: string; histogram: number[]; colours: unknown }>(
        `select a.id::text, a.visual_hash::text as hash, a.colour_histogram as histogram, a.dominant_colours as colours
           from unnest($1::uuid[]) with ordinality s (id, n) join public.ads a on a.id = s.id
          where a.visual_hash is not null order by s.n`,
        [sample.rows.map((row) => row.id)],
      )
    ).rows,
    ...people,
  };
}

/** What seedBench returned, read back from a database it seeded earlier (a kept bench database reused). */
export async function findBenchData(db: Queryable): Promise<BenchData> {
  const names = async (table: string) => (await db.query<Named>(`select id, name from public.${table}`)).rows;
  const person = async (email: string): Promise<TestUser> => {
    const { rows } = await db.query<TestUser>('select id, email from auth.users where email = $1', [email]);
    if (!rows[0]) throw new Error(`${email} is missing: is this database seeded by the benchmark?`);
    return rows[0];
  };
  const { rows } = await db.query<{ ads: string }>('select count(*) as ads from public.ads');
  const catalogue = { brands: await names('brands'), categories: await names('categories'), types: await names('types'), tags: await names('tags'),
    hooks: await names('hooks') };
  const people = {
    free: await person(PEOPLE.free),
    subscriber: await person(PEOPLE.subscriber),
    admin: await person(PEOPLE.admin),
  };
  return benchDataOf(db, Number(rows[0]!.ads), catalogue, people);
}
