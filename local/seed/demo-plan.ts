/**
 * What the demo library holds, decided before anything is rendered: for each
 * ad its brand, product, format, look, copy, tags, boards and date. All of it
 * comes from the content seed, so two databases get the same library. Every
 * fact is derived here from what the ad is (its type from its look, its
 * format from its look and its video, its offer from what its creative and
 * copy promise, its hook from both, its dates from when it was added and, on
 * the Black Friday board, from the sale), so the facts never contradict the
 * creative; tests/local/demo-plan-consistency.test.ts reads every ad back.
 */
import {
  BLACK_FRIDAY_FOOTNOTES,
  BLACK_FRIDAY_OFFERS,
  CALLS_TO_ACTION,
  CATEGORY_COPY,
  DEMO_BRANDS,
  OFFER_PILLS,
  OFFERS,
  PROMOTIONS,
  type DemoHook,
  type DemoOffer,
  type DemoOfferKind,
  type DemoProduct,
  REVIEWERS,
  UGC_HOOKS,
  UGC_LINES,
  type DemoBrand,
  type DemoTag,
  type DemoType,
} from './demo-catalog.ts';
import type { CreativeLook, CreativeSpec } from './render-creative.ts';
import { SeededRandom } from './seeded-random.ts';

export const DEMO_CONTENT_SEED = 'obyect-demo-library-v1';

/** Shares of the library, as the spec's marketing copy and the boards need them. */
export const DEMO_SHARES = { blackFriday: 0.1, topPicks: 0.075, free: 0.1, untyped: 0.1 } as const;

/** Placements: feed square, feed portrait, story, link ad. */
export const DEMO_FORMATS = [
  { ratio: '1:1', width: 1080, height: 1080 },
  { ratio: '4:5', width: 1080, height: 1350 },
  { ratio: '9:16', width: 1080, height: 1920 },
  { ratio: '1.91:1', width: 1200, height: 628 },
] as const;
type Format = (typeof DEMO_FORMATS)[number];

/** How far back the library reaches. */
export const DEMO_SPAN_DAYS = 425;
const DAY_MS = 86_400_000;
const isoDay = (time: number) => new Date(time).toISOString().slice(0, 10);
const startOfDay = (time: number) => Math.floor(time / DAY_MS) * DAY_MS;

export interface AdPlan {
  index: number;
  brand: DemoBrand;
  type: DemoType | null;
  spec: CreativeSpec;
  tags: DemoTag[];
  blackFriday: boolean;
  topPick: boolean;
  requiresSubscription: boolean;
  createdAt: Date;
  /** What a marketer judges the ad by (public.ads' fact columns), drawn from the ad's own stream. */
  facts: DemoAdFacts;
  /** A short video of the creative (local/seed/demo-video.ts), or null for an image ad. */
  video: DemoVideoPlan | null;
  /** The stream the renderer draws its small variations from. */
  renderRandom: SeededRandom;
  /** Set on the few ads that are another ad's creative posted again with a small change (withNearDuplicates). */
  nearDuplicateOf?: { index: number; change: NearDuplicateChange };
}

/**
 * How a re-posted creative differs from the first post: drawn at 80% of its
 * size, with another call to action on its button, or stored as a JPEG of
 * quality 60 where originals have 85.
 */
export type NearDuplicateChange = 'smaller' | 'other call to action' | 'recompressed';
export const NEAR_DUPLICATE_CHANGES: readonly NearDuplicateChange[] = ['smaller', 'other call to action', 'recompressed'];

/** A demo video: its length, frame rate and the camera's move over the creative. */
export interface DemoVideoPlan {
  seconds: number;
  fps: number;
  motion: 'zoom-in' | 'zoom-out' | 'pan';
}

/**
 * One ad in this many is a video (32 of the 640 demo ads), spread evenly over
 * the ads a video can be: of a type a video can have (VIDEO_TYPES), not on the
 * Black Friday board, not one of a near-duplicate pair.
 */
export const DEMO_VIDEO_EVERY = 20;
/** Static and Carousel are image-only types; an untyped ad says nothing of its motion, so it stays an image. */
export const VIDEO_TYPES: ReadonlySet<DemoType> = new Set<DemoType>(['UGC', 'Testimonial', 'Before/After', 'Offer']);

/** The fact columns of one demo ad, as the table takes them (dates YYYY-MM-DD, UTC). */
export interface DemoAdFacts {
  platforms: string[];
  placement: 'feed' | null;
  format: 'single_image' | 'carousel' | 'video';
  first_seen: string;
  last_seen: string;
  still_running: boolean;
  landing_url: string;
  primary_text: string;
  headline: string;
  call_to_action: string;
  offer: DemoOfferKind;
  hook: DemoHook;
  language: string;
  country: string;
}

const LOOK_OF_TYPE: Record<DemoType, CreativeLook> = {
  Static: 'hero',
  UGC: 'ugc',
  Carousel: 'carousel',
  'Before/After': 'before-after',
  Testimonial: 'testimonial',
  Offer: 'offer',
};

const TYPE_WEIGHTS: readonly (readonly [DemoType, number])[] = [
  ['Static', 30],
  ['UGC', 15],
  ['Carousel', 12],
  ['Before/After', 10],
  ['Testimonial', 15],
  ['Offer', 18],
];

/** The angles each look's creative can carry; a creative that leads with an offer takes its offer's hook instead. */
const ANGLE_HOOKS: Record<CreativeLook, readonly DemoHook[]> = {
  hero: ['Founder story', 'Problem/solution', 'Comparison'],
  ugc: ['Unboxing', 'Social proof', 'Testimonial'],
  testimonial: ['Testimonial', 'Social proof'],
  'before-after': ['Before/after', 'Problem/solution'],
  carousel: ['Comparison', 'Founder story'],
  offer: [],
  'black-friday': [],
};

const FORMAT_WEIGHTS: readonly (readonly [Format, number])[] = DEMO_FORMATS.map((format) => [format, { '1:1': 28, '4:5': 40, '9:16': 20, '1.91:1': 12 }[format.ratio]] as const);

/** The Friday after the fourth Thursday of November, at noon UTC. */
export function blackFridayOf(year: number): Date {
  const firstDay = new Date(Date.UTC(year, 10, 1)).getUTCDay();
  const firstThursday = 1 + ((4 - firstDay + 7) % 7);
  return new Date(Date.UTC(year, 10, firstThursday + 21 + 1, 12));
}

/** The last day (UTC midnight) a Black Friday ad of that year is seen: the Tuesday after Cyber Monday. */
function saleEndOf(year: number): number {
  return startOfDay(blackFridayOf(year).getTime()) + 4 * DAY_MS;
}

/** The Black Friday sale periods (three weeks before to the Tuesday after Cyber Monday) inside the library's span. */
function blackFridayWindows(now: Date): [number, number][] {
  const start = now.getTime() - DEMO_SPAN_DAYS * DAY_MS;
  const end = now.getTime() - 3_600_000;
  const windows: [number, number][] = [];
  for (let year = now.getUTCFullYear() - 2; year <= now.getUTCFullYear(); year += 1) {
    const day = blackFridayOf(year).getTime();
    const from = Math.max(start, day - 21 * DAY_MS);
    const to = Math.min(end, day + 4 * DAY_MS);
    if (to - from > DAY_MS) windows.push([from, to]);
  }
  return windows;
}

function tagsFor(plan: { look: CreativeLook; type: DemoType | null; offerTag: DemoTag; badge: boolean; ratio: string; blackFriday: boolean }, random: SeededRandom): DemoTag[] {
  const suggested: DemoTag[] = [];
  if (plan.blackFriday) suggested.push(random.pick(['Holiday', 'Gift Guide', 'Discount'] as const));
  if (plan.look === 'offer' || plan.badge) suggested.push(plan.offerTag);
  if (plan.look === 'testimonial') suggested.push(random.pick(['Social Proof', 'Reviews'] as const));
  if (plan.look === 'ugc') suggested.push('Creator Content');
  if (plan.look === 'before-after') suggested.push(random.pick(['Problem / Solution', 'Comparison'] as const));
  if (plan.look === 'carousel' || plan.look === 'hero') suggested.push(random.pick(['Product Shot', 'Minimal', 'Bold Typography', 'Lifestyle'] as const));
  if (plan.ratio === '9:16') suggested.push('Story Format');
  const extras: DemoTag[] = ['Bestseller', 'New Launch', 'Lifestyle', 'Founder Favorite', 'Limited Edition', 'Minimal', 'Bold Typography'];
  const wanted = random.int(1, 3);
  const tags = [...new Set(suggested)].slice(0, wanted);
  while (tags.length < wanted) {
    const extra = random.pick(extras);
    if (!tags.includes(extra)) tags.push(extra);
  }
  return tags;
}

/** The longest and shortest runs the demo library shows. */
export const DEMO_RUNNING_DAYS = { min: 3, max: 400 } as const;

const slug = (text: string) => text.toLowerCase().replace(/&/g, 'and').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

/** The button's words as one of the table's calls to action: only a button that names a saving asks to get an offer. */
function callToActionOf(cta: string): string {
  if (/^Claim\b/.test(cta) || cta === 'Get the Deal') return 'get_offer';
  if (cta === 'Order Now' || cta === 'Try It Today') return 'order_now';
  if (cta === 'Learn More') return 'learn_more';
  if (cta.startsWith('Subscribe')) return 'subscribe';
  return 'shop_now';
}

// prettier-ignore
const PLATFORMS_BY_RATIO: Record<string, readonly (readonly [string[], number])[]> = {
  '9:16': [[['tiktok'], 4], [['tiktok', 'instagram'], 4], [['instagram', 'meta'], 2], [['tiktok', 'snapchat'], 1], [['youtube'], 1], [['tiktok', 'instagram', 'youtube'], 1]],
  '1.91:1': [[['meta'], 3], [['meta', 'google'], 2], [['google'], 2], [['meta', 'pinterest'], 1]],
  upright: [[['meta', 'instagram'], 6], [['meta'], 3], [['instagram'], 3], [['meta', 'instagram', 'pinterest'], 1], [['pinterest'], 1]],
};

const COUNTRIES: readonly (readonly [string, number])[] = [['US', 55], ['GB', 18], ['CA', 10], ['AU', 10], ['IE', 4], ['NZ', 3]];

/** What an ad promises, decided once in the plan: its creative, its copy and its offer fact all follow it. */
interface OfferPlan {
  /** The offer fact. */
  kind: DemoOfferKind;
  /** The saving the creative leads with (an Offer creative's figure, a hero's badge), null when it leads with none or is a Black Friday ad. */
  promotion: DemoOffer | null;
}

/**
 * The seen dates of one ad: first seen up to six days before it was added,
 * last seen on or after that day, 3 to 400 days in all; a running ad was last
 * seen today, an ended one before today. A Black Friday ad is seen only in its
 * sale: by the Tuesday after Cyber Monday at the latest, so it runs a few days
 * to a few weeks.
 */
function seenDates(plan: { createdAt: Date; now: Date; blackFriday: boolean }, random: SeededRandom): Pick<DemoAdFacts, 'first_seen' | 'last_seen' | 'still_running'> {
  const { min, max } = DEMO_RUNNING_DAYS;
  const today = startOfDay(plan.now.getTime());
  const added = startOfDay(plan.createdAt.getTime());
  const saleEnd = plan.blackFriday ? saleEndOf(plan.createdAt.getUTCFullYear()) : Infinity;
  const firstSeen = Math.min(added - random.int(0, 6) * DAY_MS, today - (min - 1) * DAY_MS, saleEnd - (min - 1) * DAY_MS);
  const earliestEnd = Math.max(added, firstSeen + (min - 1) * DAY_MS);
  const latestEnd = Math.min(firstSeen + (max - 1) * DAY_MS, today - DAY_MS, saleEnd);
  const mayRun = today - firstSeen < max * DAY_MS && today <= saleEnd;
  // With no day left to have ended on (added today or yesterday), it is still running.
  const stillRunning = mayRun && (earliestEnd > latestEnd || random.chance(plan.blackFriday ? 0.5 : 0.4));
  if (!stillRunning && earliestEnd > latestEnd) throw new Error(`No run fits an ad added ${isoDay(added)}`);
  const lastSeen = stillRunning ? today : earliestEnd + Math.floor(((latestEnd - earliestEnd) / DAY_MS + 1) * random.next() ** 1.6) * DAY_MS;
  return { first_seen: isoDay(firstSeen), last_seen: isoDay(lastSeen), still_running: stillRunning };
}

/**
 * The hook: a creative that leads with a saving takes its offer's hook (a
 * discount's, a bundle's, or the time limit the creative states); any other
 * takes one of its look's angles.
 */
function hookOf(look: CreativeLook, spec: CreativeSpec, offer: OfferPlan, random: SeededRandom): DemoHook {
  const hooks: DemoHook[] = [];
  if (look === 'black-friday' || offer.promotion) {
    if (look === 'black-friday' || (look === 'offer' && spec.pill && OFFER_PILLS[spec.pill])) hooks.push('Limited time');
    if (offer.kind === 'discount') hooks.push('Discount');
    if (offer.kind === 'bundle') hooks.push('Bundle value');
  }
  const choices = hooks.length > 0 ? hooks : ANGLE_HOOKS[look];
  if (choices.length === 0) throw new Error(`No hook fits a ${look} creative with offer ${offer.kind}`);
  return random.pick(choices);
}

/**
 * The facts of one ad: its copy is the creative's, its offer what the
 * creative and copy promise, its dates those of seenDates, its landing page
 * on the brand's own domain (a bundle offer's on its bundles page).
 */
function planFacts(
  plan: { brand: DemoBrand; product: DemoProduct; spec: CreativeSpec; look: CreativeLook; offer: OfferPlan; ratio: string; createdAt: Date; now: Date; blackFriday: boolean },
  random: SeededRandom,
): DemoAdFacts {
  const { brand, product, spec, look, ratio, offer } = plan;
  const hook = hookOf(look, spec, offer, random);
  const platforms = random.weighted(PLATFORMS_BY_RATIO[ratio] ?? PLATFORMS_BY_RATIO.upright!);
  const dates = seenDates(plan, random);

  const domain = `${brand.name.toLowerCase().replace(/[^a-z0-9]/g, '')}.com`;
  const path = offer.promotion?.tag === 'Bundle' ? '/collections/bundles' : `/products/${slug(product.name)}`;
  const utm = random.chance(0.5) ? `?utm_source=${platforms[0]}&utm_medium=paid_social&utm_campaign=${slug(spec.headline).slice(0, 40)}` : '';
  const opening = look === 'ugc' ? `${spec.ugc.hook} ${spec.ugc.line}.` : look === 'testimonial' ? `"${spec.quote.text}" (${spec.quote.reviewer})` : `Meet the ${product.name} from ${brand.name}.`;
  // The closing repeats the saving the creative leads with; an ad that leads with none promises nothing more.
  const closing =
    look === 'black-friday' ? `${spec.blackFriday.figure} ${spec.blackFriday.caption.toLowerCase()}. ${spec.blackFriday.footnote}.`
    : offer.promotion ? `${offer.promotion.line}.`
    : random.pick(['Loved by thousands.', 'Free returns within 30 days.', 'Made to last.', 'Ships in 2 days.']);
  return {
    platforms,
    placement: ratio !== '9:16' && ratio !== '1.91:1' && random.chance(0.3) ? 'feed' : null,
    format: look === 'carousel' ? 'carousel' : 'single_image',
    ...dates,
    landing_url: `https://${domain}${path}${utm}`,
    primary_text: `${opening} ${spec.subline}. ${closing}`,
    headline: spec.headline,
    call_to_action: callToActionOf(spec.cta),
    offer: offer.kind,
    hook,
    language: 'en',
    country: random.weighted(COUNTRIES),
  };
}

const compactCount = (value: number) => (value >= 1000 ? `${(value / 1000).toFixed(1)}K` : String(value));

/**
 * One near-duplicate per change, each of a different brand, so the admin's
 * near-duplicate groups have something to show: the first ads past the
 * one-per-brand run whose brand posted before become that earlier ad's
 * creative again (its type, tags and copy; their own dates and boards), with
 * the change. Neither side is a Black Friday ad. A library of 50 ads or fewer
 * has none.
 */
function withNearDuplicates(plans: AdPlan[]): AdPlan[] {
  const brands = new Set<string>();
  let next = 0;
  for (let index = DEMO_BRANDS.length; index < plans.length && next < NEAR_DUPLICATE_CHANGES.length; index++) {
    const copy = plans[index]!;
    if (copy.blackFriday || brands.has(copy.brand.name)) continue;
    const change = NEAR_DUPLICATE_CHANGES[next]!;
    // Some carousel cards draw no button.
    const source = plans.find(
      (plan) => plan.index < index && plan.brand === copy.brand && !plan.blackFriday && !plan.nearDuplicateOf && (change !== 'other call to action' || plan.spec.look !== 'carousel'),
    );
    if (!source) continue;
    next += 1;
    brands.add(copy.brand.name);
    let spec = source.spec;
    let callToAction = source.facts.call_to_action;
    if (change === 'smaller') spec = { ...spec, width: Math.round(spec.width * 0.8), height: Math.round(spec.height * 0.8) };
    if (change === 'other call to action') {
      const cta = CALLS_TO_ACTION.find((label) => label !== source.spec.cta)!;
      spec = { ...spec, cta };
      callToAction = callToActionOf(cta);
    }
    plans[index] = {
      ...copy,
      type: source.type,
      spec,
      tags: source.tags,
      facts: { ...source.facts, call_to_action: callToAction, first_seen: copy.facts.first_seen, last_seen: copy.facts.last_seen, still_running: copy.facts.still_running },
      renderRandom: source.renderRandom,
      nearDuplicateOf: { index: source.index, change },
    };
  }
  return plans;
}

/**
 * One ad in DEMO_VIDEO_EVERY becomes a video, its format fact `video`: the
 * ads a video can be (VIDEO_TYPES, off the Black Friday board, neither side of
 * a near-duplicate pair) taken at even steps, newest to oldest. Each video's
 * length and camera move come from its own stream, so choosing videos changes
 * nothing else of the library.
 */
function withVideos(plans: AdPlan[], root: SeededRandom): AdPlan[] {
  const paired = new Set(plans.flatMap((plan) => (plan.nearDuplicateOf ? [plan.index, plan.nearDuplicateOf.index] : [])));
  const candidates = plans.filter((plan) => !plan.blackFriday && plan.type !== null && VIDEO_TYPES.has(plan.type) && !paired.has(plan.index));
  const count = Math.min(candidates.length, Math.round(plans.length / DEMO_VIDEO_EVERY));
  const chosen = new Set(Array.from({ length: count }, (_, k) => candidates[Math.floor(((k + 0.5) * candidates.length) / count)]!.index));
  return plans.map((plan) => {
    if (!chosen.has(plan.index)) return plan;
    const random = root.fork(`video:${plan.index}`);
    const video: DemoVideoPlan = { seconds: random.int(2, 5), fps: 12, motion: random.pick(['zoom-in', 'zoom-out', 'pan'] as const) };
    return { ...plan, video, facts: { ...plan.facts, format: 'video' } };
  });
}

/** The plan of adCount ads, index 0 the newest. */
export function planDemoLibrary(adCount: number, now: Date, seed = DEMO_CONTENT_SEED): AdPlan[] {
  if (!Number.isInteger(adCount) || adCount < 1) throw new Error(`adCount must be a positive integer, got ${adCount}`);
  const root = new SeededRandom(seed);
  const picks = root.fork('boards');
  const indices = Array.from({ length: adCount }, (_, i) => i);
  const blackFriday = new Set(picks.sample(indices, Math.round(adCount * DEMO_SHARES.blackFriday)));
  const topPicks = new Set(picks.sample(indices.filter((i) => !blackFriday.has(i)), Math.round(adCount * DEMO_SHARES.topPicks)));
  const free = new Set(picks.sample(indices, Math.round(adCount * DEMO_SHARES.free)));

  // The newest 50 ads cover every brand once; after that some brands publish more than others.
  const brandRandom = root.fork('brands');
  const coverage = brandRandom.shuffled(DEMO_BRANDS);
  const brandWeights = DEMO_BRANDS.map((brand) => [brand, brandRandom.between(0.5, 1.8)] as const);

  // Dates: ordinary ads spread newest (today) to oldest, denser recently; Black Friday ads in the sale periods.
  const dates = root.fork('dates');
  const ordinary = indices.filter((i) => !blackFriday.has(i));
  const ageOf = new Map<number, number>();
  ordinary.forEach((index, rank) => {
    const position = ordinary.length === 1 ? 0 : (rank + dates.next() * 0.9) / ordinary.length;
    ageOf.set(index, rank === 0 ? dates.between(0.01, 0.08) * DAY_MS : position ** 1.2 * DEMO_SPAN_DAYS * DAY_MS);
  });
  const windows = blackFridayWindows(now);
  const windowWeights = windows.map((window) => [window, window[1] - window[0]] as const);

  const plans = indices.map((index): AdPlan => {
    const random = root.fork(`ad:${index}`);
    const brand = index < coverage.length ? coverage[index]! : random.weighted(brandWeights);
    const copy = CATEGORY_COPY[brand.category];
    const product = random.pick(copy.products);
    const isBlackFriday = blackFriday.has(index);
    const type: DemoType | null = isBlackFriday
      ? random.chance(0.6) ? 'Offer' : 'Static'
      : random.chance(DEMO_SHARES.untyped) ? null : random.weighted(TYPE_WEIGHTS);
    const look: CreativeLook = isBlackFriday ? 'black-friday' : type ? LOOK_OF_TYPE[type] : 'hero';
    const format = look === 'ugc' ? random.weighted<Format>([[DEMO_FORMATS[2], 6], [DEMO_FORMATS[1], 3], [DEMO_FORMATS[0], 1]]) : random.weighted(FORMAT_WEIGHTS);
    // An Offer creative leads with a saving; a hero's badge may also be news (NEW, BACK IN STOCK), which promises none.
    const offer = random.pick(look === 'offer' ? PROMOTIONS : OFFERS);
    const badge = look === 'hero' && random.chance(0.45);
    const bf = random.pick(BLACK_FRIDAY_OFFERS);
    const promotion = (look === 'offer' || badge) && offer.kind !== 'none' ? offer : null;
    const headline = isBlackFriday ? bf.headline : random.pick(copy.headlines).replace('{product}', product.name);
    // A creative that leads with an offer says no other; one that leads with none may promise one in its benefit line.
    const benefit = random.pick(isBlackFriday || promotion ? copy.benefits.filter((line) => typeof line === 'string') : copy.benefits);
    const offerPlan: OfferPlan = {
      kind: isBlackFriday ? 'discount' : promotion ? promotion.kind : typeof benefit === 'string' ? 'none' : benefit.offer,
      promotion,
    };
    const spec: CreativeSpec = {
      width: format.width,
      height: format.height,
      brand,
      product,
      look,
      headline,
      subline: typeof benefit === 'string' ? benefit : benefit.line,
      cta: isBlackFriday ? random.pick(['Shop the Sale', 'Shop Black Friday', 'Get the Deal']) : look === 'offer' ? offer.cta : random.pick(CALLS_TO_ACTION),
      offer,
      badge,
      // Its own stream, so the pill changes nothing else of the ad.
      pill: look === 'offer' ? random.fork('pill').pick(offer.pills) : null,
      quote: { text: random.pick(copy.quotes), reviewer: random.pick(REVIEWERS) },
      beforeAfter: { before: copy.before, after: copy.after },
      ugc: { hook: random.pick(UGC_HOOKS), line: random.pick(UGC_LINES), likes: compactCount(random.int(800, 98_000)), comments: compactCount(random.int(40, 3_200)) },
      blackFriday: { ...bf, footnote: random.pick(BLACK_FRIDAY_FOOTNOTES) },
    };
    const createdAt = isBlackFriday && windows.length > 0
      ? (() => {
          const [from, to] = random.weighted(windowWeights);
          return new Date(from + random.next() * (to - from));
        })()
      : new Date(now.getTime() - (ageOf.get(index) ?? 0));
    const facts = planFacts({ brand, product, spec, look, offer: offerPlan, ratio: format.ratio, createdAt, now, blackFriday: isBlackFriday }, random.fork('facts'));
    return {
      index,
      brand,
      type,
      spec,
      tags: tagsFor({ look, type, offerTag: offer.tag, badge, ratio: format.ratio, blackFriday: isBlackFriday }, random),
      blackFriday: isBlackFriday,
      topPick: topPicks.has(index),
      requiresSubscription: !free.has(index),
      createdAt,
      facts,
      video: null,
      renderRandom: random.fork('render'),
    };
  });
  return withVideos(withNearDuplicates(plans), root);
}
