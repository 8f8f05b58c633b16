import { describe, expect, it } from 'vitest';
import { DEMO_CONTENT_SEED, planDemoLibrary, type AdPlan, type DemoAdFacts } from '../../local/seed/demo-plan.ts';
import { drawnText, renderCreativeSvg, type CreativeLook } from '../../local/seed/render-creative.ts';
import { DEFAULT_DEMO_AD_COUNT } from '../../local/seed/seed-demo.ts';

/**
 * The whole first-start library (640 ads, npm start's seed) does not contradict
 * itself: each fact agrees with the creative, the copy and the other facts. The
 * rules read the words as a marketer would, on their own, not through the
 * planner's tables, so a line added to the catalogue is judged by what it says.
 */

const DAY_MS = 86_400_000;

/** npm start plans from the moment it runs: the rules hold on any day, so they are checked on several, the run's own among them. */
const NOWS: Record<string, Date> = {
  'five days before Black Friday 2026 (the other demo tests’ date)': new Date('2026-11-22T09:00:00Z'),
  'on Black Friday 2025, the sale running': new Date('2025-11-28T18:00:00Z'),
  'the day after Cyber Monday 2026': new Date('2026-12-01T08:00:00Z'),
  'New Year’s Day 2027': new Date('2027-01-01T00:30:00Z'),
  'mid-July 2026': new Date('2026-07-15T12:00:00Z'),
  'the moment of this run': new Date(),
};

type Offer = DemoAdFacts['offer'];
type OfferKind = Exclude<Offer, 'none'>;

/** "Bundle & save up to 30%", "30% off bundles": the saving is the bundle's (drawn text drops the "&"). */
const BUNDLE_SAVING = /\bbundle (?:(?:&|and) )?save(?: up to \d+ ?%)?|(?:\bup to )?\b\d+ ?% off bundles\b/gi;
const BUNDLE = /\bbundles?\b|\bbuy \d+,? get \d+\b|\b\d+ for \d+\b|\bmix (?:(?:&|and) )?match\b|\bfree gifts?\b|\bgift with\b|\bfree (?!shipping|delivery|returns)(?:\w+ ){0,2}with (?:every|your|first|orders?)\b/i;
const FREE_SHIPPING = /\bfree (?:shipping|delivery)\b|\bships free\b/i;
const DISCOUNT = /\d+ ?%|\bsave\b|\boff (?:your|every|with|sitewide|everything)\b|\bcodes? [A-Z0-9]{3,}\b|\bno code needed\b|\bon us\b|\bsale\b|\bdeals?\b|\bdoorbusters?\b/i;

/** The kinds of offer (public.ads.offer) a piece of text promises. */
function offersStated(text: string): Set<OfferKind> {
  const kinds = new Set<OfferKind>();
  if (new RegExp(BUNDLE_SAVING.source, 'i').test(text) || BUNDLE.test(text)) kinds.add('bundle');
  const rest = text.replace(BUNDLE_SAVING, ' ');
  if (FREE_SHIPPING.test(rest)) kinds.add('free_shipping');
  if (DISCOUNT.test(rest)) kinds.add('discount');
  return kinds;
}

const TIME_LIMIT = /\blimited time\b|\b(?:today|this week|this weekend) only\b|\bwhile stocks last\b|\bends (?:today|tonight|monday|sunday|soon)\b|\bblack friday\b|\bcyber monday\b|\bearly access\b|\ball weekend\b|\bdoorbusters?\b/i;
/** An offer said to hold for good: "FREE SHIPPING, ALWAYS" beside "TODAY ONLY" contradicts itself. */
const LASTING = /\b(?:shipping|delivery|prices?|savings?),? always\b/i;
const BLACK_FRIDAY_WORDS = /\bblack friday\b|\bcyber monday\b|\bdoorbusters?\b/i;
const HOLIDAY_WORDS = /\bholidays?\b|\bchristmas\b|\bfestive\b|\bgift guide\b/i;

/** Image-only types: a video ad is never one of them. */
const IMAGE_ONLY_TYPES = new Set(['Static', 'Carousel']);
const LOOKS_OF_TYPE: Record<string, readonly CreativeLook[]> = {
  Static: ['hero', 'black-friday'],
  UGC: ['ugc'],
  Carousel: ['carousel'],
  'Before/After': ['before-after'],
  Testimonial: ['testimonial'],
  Offer: ['offer', 'black-friday'],
};
/** The angles each look can carry; offer and Black Friday creatives lead with their offer. */
const ANGLE_HOOKS: Record<CreativeLook, readonly string[]> = {
  hero: ['Founder story', 'Problem/solution', 'Comparison'],
  ugc: ['Unboxing', 'Social proof', 'Testimonial'],
  testimonial: ['Testimonial', 'Social proof'],
  'before-after': ['Before/after', 'Problem/solution', 'Comparison'],
  carousel: ['Comparison', 'Founder story'],
  offer: [],
  'black-friday': [],
};
const OFFER_TAGS: Record<string, OfferKind> = { Discount: 'discount', Subscription: 'discount', Bundle: 'bundle', 'Free Gift': 'bundle', 'Free Shipping': 'free_shipping' };

/** Black Friday: the Friday after the fourth Thursday of November (UTC day, midnight). */
function blackFriday(year: number): number {
  const firstDay = new Date(Date.UTC(year, 10, 1)).getUTCDay();
  return Date.UTC(year, 10, 1 + ((4 - firstDay + 7) % 7) + 22);
}

interface CheckedAd {
  plan: AdPlan;
  facts: DemoAdFacts;
  /** The words the creative draws: the stored image_text. */
  imageText: string;
  now: Date;
  today: number;
  first: number;
  last: number;
  added: number;
  /** Every piece of text the ad shows or stores, one claim each: the primary text's sentences, headline, button, badge, image. */
  pieces: string[];
}

const dayOf = (time: number) => Math.floor(time / DAY_MS) * DAY_MS;
const iso = (time: number) => new Date(time).toISOString().slice(0, 10);

function checked(plan: AdPlan, now: Date): CheckedAd {
  const { facts, spec } = plan;
  const imageText = drawnText(renderCreativeSvg(spec, plan.renderRandom.fork('creative')));
  const pieces = [...facts.primary_text.split(/(?<=[.!?])\s+/), facts.headline, spec.cta, imageText];
  if (spec.look === 'hero' && spec.badge) pieces.push(spec.offer.badge);
  return {
    plan,
    facts,
    imageText,
    now,
    today: dayOf(now.getTime()),
    first: Date.parse(facts.first_seen),
    last: Date.parse(facts.last_seen),
    added: dayOf(plan.createdAt.getTime()),
    pieces,
  };
}

/** The holiday or Black Friday season an ad ran in, if its whole run lies in one. */
function seasonOf(ad: CheckedAd, end: 'cyber week' | 'year end'): boolean {
  const year = new Date(ad.first).getUTCFullYear();
  const day = blackFriday(year);
  const until = end === 'cyber week' ? day + 7 * DAY_MS : Date.UTC(year, 11, 31);
  return ad.first >= day - 28 * DAY_MS && ad.last <= until;
}

interface Rule {
  name: string;
  /** What is wrong with the ad, or null. */
  broken(ad: CheckedAd): string | null;
}

const RULES: Rule[] = [
  {
    name: 'its type fits its format: a video is never an image-only type, a carousel is typed Carousel',
    broken: ({ plan, facts }) => {
      if (facts.format === 'video' && plan.type && IMAGE_ONLY_TYPES.has(plan.type)) return `a video typed ${plan.type}`;
      if ((facts.format === 'carousel') !== (plan.type === 'Carousel')) return `format ${facts.format} typed ${plan.type ?? 'untyped'}`;
      if ((facts.format === 'carousel') !== (plan.spec.look === 'carousel')) return `format ${facts.format} drawn as ${plan.spec.look}`;
      return null;
    },
  },
  {
    name: 'it is a video exactly when its format says so, and never a Black Friday one',
    broken: ({ plan, facts }) =>
      Boolean(plan.video) !== (facts.format === 'video') ? `format ${facts.format} with ${plan.video ? 'a video' : 'no video'}`
      : plan.video && plan.blackFriday ? 'a Black Friday video'
      : null,
  },
  {
    name: 'its type fits its creative, and an Offer ad has an offer',
    broken: ({ plan, facts }) => {
      if (!plan.type) return null;
      if (!LOOKS_OF_TYPE[plan.type]!.includes(plan.spec.look)) return `typed ${plan.type}, drawn as ${plan.spec.look}`;
      if (plan.type === 'Offer' && facts.offer === 'none') return `typed Offer with offer none ("${plan.spec.offer.line}")`;
      return null;
    },
  },
  {
    name: 'the offer fact follows every offer its copy, headline, button, badge and image state',
    broken: ({ facts, pieces }) => {
      for (const piece of pieces) {
        for (const kind of offersStated(piece)) if (kind !== facts.offer) return `"${piece}" states ${kind}, offer is ${facts.offer}`;
      }
      return null;
    },
  },
  {
    name: 'an offer in the facts is stated by the ad',
    broken: ({ facts, pieces }) => (facts.offer !== 'none' && !pieces.some((piece) => offersStated(piece).has(facts.offer as OfferKind)) ? `offer ${facts.offer}, stated nowhere` : null),
  },
  {
    name: 'its call to action promises an offer only when it has one and its button says so',
    broken: ({ plan, facts }) =>
      facts.call_to_action === 'get_offer' && (facts.offer === 'none' || offersStated(plan.spec.cta).size === 0) ? `"${plan.spec.cta}" as get_offer with offer ${facts.offer}` : null,
  },
  {
    name: 'its hook fits its look and its offer',
    broken: (ad) => {
      const { plan, facts } = ad;
      const look = plan.spec.look;
      const leadsWithOffer = look === 'offer' || look === 'black-friday' || (look === 'hero' && plan.spec.badge && facts.offer !== 'none');
      const text = ad.pieces.join(' ');
      const offerHook =
        facts.hook === 'Discount' ? facts.offer === 'discount'
        : facts.hook === 'Bundle value' ? facts.offer === 'bundle'
        : facts.hook === 'Limited time' ? TIME_LIMIT.test(text)
        : null;
      if (offerHook !== null) return leadsWithOffer && offerHook ? null : `hook ${facts.hook} on a ${look} creative with offer ${facts.offer}`;
      return ANGLE_HOOKS[look].includes(facts.hook) ? null : `hook ${facts.hook} on a ${look} creative`;
    },
  },
  {
    name: 'no time limit on an offer that lasts',
    broken: ({ pieces }) => {
      const text = pieces.join(' ');
      return TIME_LIMIT.test(text) && LASTING.test(text) ? `"${text.match(TIME_LIMIT)![0]}" beside "${text.match(LASTING)![0]}"` : null;
    },
  },
  {
    name: 'its dates are in order: first seen, added, last seen, 3 to 400 days',
    broken: ({ first, last, added }) => {
      const days = Math.round((last - first) / DAY_MS) + 1;
      if (last < first) return `last seen ${iso(last)} before first seen ${iso(first)}`;
      if (added < first || added > last) return `added ${iso(added)} outside its run ${iso(first)} – ${iso(last)}`;
      if (days < 3 || days > 400) return `runs ${days} days`;
      return null;
    },
  },
  {
    name: 'nothing is dated after now',
    broken: ({ plan, now, today, first, last }) =>
      plan.createdAt > now ? `added ${plan.createdAt.toISOString()}` : first > today || last > today ? `seen ${iso(first)} – ${iso(last)} after today` : null,
  },
  {
    name: 'it is still running exactly when it was last seen today',
    broken: ({ facts, today, last }) =>
      facts.still_running && last !== today ? `still running, last seen ${iso(last)}`
      : !facts.still_running && last >= today ? `ended, last seen ${iso(last)}`
      : null,
  },
  {
    name: 'a Black Friday ad runs a few days to a few weeks around late November of its year',
    broken: (ad) => {
      if (!ad.plan.blackFriday) return null;
      const days = Math.round((ad.last - ad.first) / DAY_MS) + 1;
      if (!seasonOf(ad, 'cyber week') || days > 35) return `seen ${iso(ad.first)} – ${iso(ad.last)} (${days} days${ad.facts.still_running ? ', still running' : ''})`;
      return null;
    },
  },
  {
    name: 'seasonal words and tags appear only in their season',
    broken: (ad) => {
      const words = [...ad.pieces, ...ad.plan.tags].join(' · ');
      if (BLACK_FRIDAY_WORDS.test(words) && !(ad.plan.blackFriday && seasonOf(ad, 'cyber week'))) return `"${words.match(BLACK_FRIDAY_WORDS)![0]}" seen ${iso(ad.first)} – ${iso(ad.last)}`;
      if (HOLIDAY_WORDS.test(words) && !seasonOf(ad, 'year end')) return `"${words.match(HOLIDAY_WORDS)![0]}" seen ${iso(ad.first)} – ${iso(ad.last)}`;
      return null;
    },
  },
  {
    name: 'its tags fit its facts and its creative',
    broken: ({ plan, facts }) => {
      for (const tag of plan.tags) {
        if (OFFER_TAGS[tag] && OFFER_TAGS[tag] !== facts.offer) return `tag ${tag} with offer ${facts.offer}`;
        if (tag === 'Creator Content' && plan.spec.look !== 'ugc') return `tag ${tag} on a ${plan.spec.look} creative`;
        if (tag === 'Story Format' && plan.spec.height / plan.spec.width < 1.6) return `tag ${tag} at ${plan.spec.width} × ${plan.spec.height}`;
      }
      return null;
    },
  },
  {
    name: 'its landing page fits its offer',
    broken: ({ facts }) => (new URL(facts.landing_url).pathname === '/collections/bundles' && facts.offer !== 'bundle' ? `the bundles page with offer ${facts.offer}` : null),
  },
];

const nameOf = ({ plan, facts }: CheckedAd) => `ad ${plan.index} (${plan.brand.name}, ${plan.type ?? 'untyped'}, ${plan.spec.look}, ${facts.format}${plan.blackFriday ? ', Black Friday' : ''})`;

describe.each(Object.entries(NOWS))('the demo library planned %s', (_, now) => {
  const ads = planDemoLibrary(DEFAULT_DEMO_AD_COUNT, now, DEMO_CONTENT_SEED).map((plan) => checked(plan, now));

  it('is the whole first-start library', () => {
    expect(ads).toHaveLength(640);
  });

  it.each(RULES.map((rule) => [rule.name, rule] as const))('every ad: %s', (_, rule) => {
    const failures = ads.flatMap((ad) => {
      const broken = rule.broken(ad);
      return broken ? [`${nameOf(ad)}: ${broken}`] : [];
    });
    expect(failures.length, `${failures.length} ads break "${rule.name}":\n${failures.slice(0, 12).join('\n')}`).toBe(0);
  });
});

describe('the rules’ reading of offers', () => {
  it.each([
    ['Free shipping over 35', ['free_shipping']],
    ['Bundle & save up to 30%', ['bundle']],
    ['LIMITED TIME 30% OFF BUNDLES Shop Bundles', ['bundle']],
    ['BUNDLE SAVE', ['bundle']],
    ['GIFT FREE WITH ORDERS OVER 60 Get Yours', ['bundle']],
    ['Claim 20% Off', ['discount']],
    ['Your first bag is on us', ['discount']],
    ['I have not taken it off in months.', []],
    ['Fragrance-free · Vegan · Clinically tested', []],
    ['Free returns within 30 days.', []],
    ['Get Yours', []],
  ] as const)('reads "%s" as %j', (text, kinds) => {
    expect([...offersStated(text)].sort()).toEqual([...kinds].sort());
  });
});
