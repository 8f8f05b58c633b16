/**
 * The demo library's invented brands, taxonomy and ad copy. Brand names are
 * made up for the demo; none is meant to be a real company.
 */
import type { ProductShape } from './product-shapes.ts';

export const DEMO_CATEGORIES = [
  'Skincare',
  'Supplements',
  'Apparel',
  'Home',
  'Pets',
  'Coffee & Tea',
  'Fitness',
  'Haircare',
  'Sleep',
  'Snacks',
  'Jewelry',
  'Tech Accessories',
] as const;
export type DemoCategory = (typeof DEMO_CATEGORIES)[number];

export const DEMO_TYPES = ['Static', 'UGC', 'Carousel', 'Before/After', 'Testimonial', 'Offer'] as const;
export type DemoType = (typeof DEMO_TYPES)[number];

export const DEMO_TAGS = [
  'Bestseller',
  'New Launch',
  'Discount',
  'Bundle',
  'Free Shipping',
  'Subscription',
  'Social Proof',
  'Reviews',
  'Product Shot',
  'Lifestyle',
  'Minimal',
  'Bold Typography',
  'Problem / Solution',
  'Comparison',
  'Limited Edition',
  'Gift Guide',
  'Holiday',
  'Creator Content',
  'Risk-Free',
  'Free Gift',
  'Story Format',
  'Founder Favorite',
] as const;
export type DemoTag = (typeof DEMO_TAGS)[number];

/** How a brand sets type: headline and wordmark faces follow from it. */
export type BrandTypography = 'serif' | 'sans' | 'condensed' | 'light';

export interface BrandPalette {
  background: string;
  ink: string;
  primary: string;
  accent: string;
}

export interface DemoBrand {
  name: string;
  category: DemoCategory;
  typography: BrandTypography;
  palette: BrandPalette;
}

const brand = (
  name: string,
  category: DemoCategory,
  typography: BrandTypography,
  background: string,
  ink: string,
  primary: string,
  accent: string,
): DemoBrand => ({ name, category, typography, palette: { background, ink, primary, accent } });

export const DEMO_BRANDS: readonly DemoBrand[] = [
  brand('Lumelle', 'Skincare', 'serif', '#f6e7dc', '#3b2a24', '#e8a88c', '#b4553a'),
  brand('Dewkind', 'Skincare', 'sans', '#e4f1ec', '#1f3a33', '#9ed0bf', '#1f6f5c'),
  brand('Saltmoss', 'Skincare', 'light', '#dde3d5', '#2e3a2a', '#7c8f6a', '#2e3a2a'),
  brand('Fernwell', 'Skincare', 'serif', '#f3efe6', '#243127', '#3f6b4e', '#c9822e'),
  brand('Clearcove', 'Skincare', 'sans', '#e6eef8', '#1b2b45', '#ffffff', '#2e5bdb'),
  brand('Vitalune', 'Supplements', 'condensed', '#ffe9a8', '#2b2118', '#f2b705', '#2b2118'),
  brand('Rootwise', 'Supplements', 'sans', '#e9e2d3', '#2f2a1f', '#5a7b3a', '#d0692f'),
  brand('Morrow Labs', 'Supplements', 'light', '#111827', '#f9fafb', '#e5e7eb', '#22d3ee'),
  brand('Nuvra', 'Supplements', 'sans', '#f4d8e4', '#3a1e2d', '#c2457a', '#3a1e2d'),
  brand('Hollow Pine', 'Apparel', 'condensed', '#d9d4c7', '#1e2420', '#3b4a3f', '#1e2420'),
  brand('Tidewear', 'Apparel', 'sans', '#cfe3ee', '#0f2d40', '#2d6e8e', '#f26b3a'),
  brand('Northstitch', 'Apparel', 'condensed', '#edeae4', '#1c1c1c', '#b23a3a', '#1c1c1c'),
  brand('Ossa Knit', 'Apparel', 'light', '#efe6da', '#3b322b', '#c8b39a', '#3b322b'),
  brand('Kindred Thread', 'Apparel', 'serif', '#f1e3d3', '#40281c', '#d97941', '#40281c'),
  brand('Emberly', 'Home', 'serif', '#2b1d16', '#f8ebdd', '#e9d6be', '#e07a3e'),
  brand('Nestwell Home', 'Home', 'sans', '#e8ede6', '#2f3b33', '#a9b8a0', '#2f3b33'),
  brand('Quillhouse', 'Home', 'serif', '#f5f0e8', '#2a2a2a', '#c75c47', '#2a2a2a'),
  brand('Linea Loom', 'Home', 'light', '#e9e4f2', '#2c2540', '#8c7bc0', '#2c2540'),
  brand('Barkwell', 'Pets', 'condensed', '#ffd56b', '#2d2a26', '#e4572e', '#2d2a26'),
  brand('Whiskerly', 'Pets', 'sans', '#d7ecf7', '#21324a', '#f5a3b5', '#21324a'),
  brand('Good Mutt Co.', 'Pets', 'sans', '#cbe7c7', '#1e3320', '#2f7d4f', '#f2a541'),
  brand('Snoutfolk', 'Pets', 'condensed', '#f7e3cf', '#3a2617', '#8b5e3c', '#d94f2b'),
  brand('Highfield Roasters', 'Coffee & Tea', 'condensed', '#1f2a24', '#f2e8d5', '#c8a46a', '#c8a46a'),
  brand('Kettle & Crane', 'Coffee & Tea', 'serif', '#efe9dd', '#23312b', '#4f7a5a', '#a33b2b'),
  brand('Brewlane', 'Coffee & Tea', 'sans', '#f3d9c4', '#3a2314', '#6b3e26', '#3a2314'),
  brand('Mossleaf Matcha', 'Coffee & Tea', 'light', '#dde8c8', '#22331a', '#6e9440', '#22331a'),
  brand('Ironleaf', 'Fitness', 'condensed', '#0f1412', '#e9f5ec', '#2e3b35', '#7cfc9b'),
  brand('Stridewell', 'Fitness', 'condensed', '#ff6b3d', '#1a1a1a', '#1a1a1a', '#ffffff'),
  brand('Coreform', 'Fitness', 'sans', '#e3e6ea', '#14171c', '#3857f5', '#14171c'),
  brand('Liftloft', 'Fitness', 'sans', '#fce7f3', '#3b0a2a', '#db2777', '#3b0a2a'),
  brand('Crownwell', 'Haircare', 'serif', '#eadff0', '#2e1f3a', '#6c4a8c', '#2e1f3a'),
  brand('Silkroot', 'Haircare', 'light', '#f2e4d0', '#3a2a17', '#b07a3b', '#3a2a17'),
  brand('Curlhaus', 'Haircare', 'condensed', '#ffcfb8', '#3a1a10', '#f08a4b', '#3a1a10'),
  brand('Velvra', 'Haircare', 'sans', '#dcebea', '#123634', '#2a9d8f', '#123634'),
  brand('Slumberhaus', 'Sleep', 'serif', '#1e2347', '#eef0ff', '#c9cff5', '#f4c95d'),
  brand('Drowse', 'Sleep', 'light', '#d9dcef', '#1f2340', '#6b73b5', '#1f2340'),
  brand('Moonloft', 'Sleep', 'sans', '#2a2140', '#f5eeff', '#b79ced', '#f5eeff'),
  brand('Hushwell', 'Sleep', 'sans', '#eae6e1', '#2b2a33', '#7d8597', '#2b2a33'),
  brand('Crunchwell', 'Snacks', 'condensed', '#ffe14d', '#1e1b16', '#e63946', '#1e1b16'),
  brand('Nutty Noon', 'Snacks', 'sans', '#f4d6b0', '#3b2312', '#9c5b2e', '#3b2312'),
  brand('Salt & Sprout', 'Snacks', 'sans', '#d8eedb', '#183a24', '#3e9b5f', '#f77f00'),
  brand('Oatlore', 'Snacks', 'serif', '#f6eedf', '#3e3020', '#d9a441', '#3e3020'),
  brand('Aurelle', 'Jewelry', 'serif', '#f5ede3', '#2a2420', '#c9a15b', '#2a2420'),
  brand('Golden Hour Goods', 'Jewelry', 'light', '#f9d9b8', '#402a1b', '#d4a24c', '#402a1b'),
  brand('Lune & Co.', 'Jewelry', 'serif', '#1c1c22', '#f4f0e8', '#d8c08c', '#d8c08c'),
  brand('Fira Studio', 'Jewelry', 'light', '#e8dcd6', '#33211c', '#b9966a', '#33211c'),
  brand('Cordless Club', 'Tech Accessories', 'condensed', '#e4ef5a', '#161616', '#161616', '#161616'),
  brand('Nookcase', 'Tech Accessories', 'sans', '#dde7f7', '#172033', '#f27c5c', '#172033'),
  brand('Voltage Goods', 'Tech Accessories', 'condensed', '#121212', '#f5f5f5', '#2f2f2f', '#ffd400'),
  brand('Lumen Dock', 'Tech Accessories', 'light', '#f0f0ee', '#1d1d1f', '#d8d8d4', '#3a7bf6'),
];

export interface DemoProduct {
  name: string;
  shape: ProductShape;
}

/** A benefit line, or one that states an offer and its kind. */
export type DemoBenefit = string | { line: string; offer: DemoPromotionKind };

export interface CategoryCopy {
  products: readonly DemoProduct[];
  /** {product} is replaced by the product's name. */
  headlines: readonly string[];
  /** A benefit or proof line; one that promises an offer says which (the ad's offer fact follows it). */
  benefits: readonly DemoBenefit[];
  quotes: readonly string[];
  before: string;
  after: string;
}

export const CATEGORY_COPY: Record<DemoCategory, CategoryCopy> = {
  Skincare: {
    products: [
      { name: 'Vitamin C Serum', shape: 'dropper' },
      { name: 'Barrier Repair Cream', shape: 'jar' },
      { name: 'Gentle Gel Cleanser', shape: 'pump' },
      { name: 'Daily SPF 50', shape: 'tube' },
      { name: 'Overnight Glow Mask', shape: 'jar' },
    ],
    headlines: [
      'Your skin, but on its best day',
      'The serum with a 40,000-person waitlist',
      'Glow that survives a Monday',
      'Dermatologist-made. Fairly priced.',
      'Stop layering 9 products',
      'Hydration that actually lasts',
      'Clearer skin in 28 days',
      'Meet the {product} everyone is talking about',
    ],
    benefits: [
      'Visible glow in 14 days',
      'Fragrance-free · Vegan · Clinically tested',
      'Loved by sensitive skin',
      'Dermatologist approved',
      'Rated 4.8 by 12,000+ customers',
    ],
    quotes: [
      'My skin has honestly never looked this good.',
      'I threw out half my routine after one week.',
      'Finally, something that does not break me out.',
      'People keep asking what I changed.',
    ],
    before: 'Dull, uneven skin',
    after: 'Bright, even glow',
  },
  Supplements: {
    products: [
      { name: 'Daily Greens', shape: 'tub' },
      { name: 'Magnesium Glycinate', shape: 'pillBottle' },
      { name: 'Gut Health Gummies', shape: 'pouch' },
      { name: 'Collagen Peptides', shape: 'tub' },
      { name: 'Vitamin D3 + K2', shape: 'pillBottle' },
    ],
    headlines: [
      'One scoop replaces 7 supplements',
      'Energy without the 3 pm crash',
      'Your gut will thank you',
      'Sleep deeper, wake up sharper',
      'The daily habit 50,000 people kept',
      'Stop guessing what your body needs',
      'Clean ingredients. Real results.',
      'Feel the difference in 30 days',
    ],
    benefits: [
      'Third-party tested',
      'No sugar · No fillers · Vegan',
      { line: 'Subscribe & save 20%', offer: 'discount' },
      'Made in a GMP-certified facility',
      '30-day money-back guarantee',
    ],
    quotes: [
      'I have not missed a day in six months.',
      'My afternoon slump is just gone.',
      'Tastes good, which I did not expect.',
      'The only supplement I have actually felt.',
    ],
    before: 'Tired by 3 pm',
    after: 'Steady energy all day',
  },
  Apparel: {
    products: [
      { name: 'Heavyweight Tee', shape: 'tshirt' },
      { name: 'Cloud Fleece Hoodie', shape: 'hoodie' },
      { name: 'Merino Crew Tee', shape: 'tshirt' },
      { name: 'Relaxed Zip Hoodie', shape: 'hoodie' },
    ],
    headlines: [
      'The tee you will wear 4 days a week',
      'Built to outlast fast fashion',
      'Softer after every wash',
      'The hoodie that sold out 3 times',
      'Essentials, done properly',
      'One layer. Every season.',
      'Made to be lived in',
      'Finally, a perfect fit',
    ],
    benefits: [
      'Organic cotton · Made ethically',
      'Free returns, always',
      'Pre-shrunk heavyweight jersey',
      'Sizes XS to 3XL',
      'Rated 4.9 for fit',
    ],
    quotes: [
      'I bought one. Then I bought five.',
      'Still looks new after a year of washing.',
      'The fit is honestly perfect.',
      'My go-to for literally everything.',
    ],
    before: 'Stretched after 3 washes',
    after: 'Still in shape after 50',
  },
  Home: {
    products: [
      { name: 'Cedar & Smoke Candle', shape: 'candle' },
      { name: 'Stoneware Mug', shape: 'mug' },
      { name: 'Linen Room Spray', shape: 'spray' },
      { name: 'Fig & Amber Candle', shape: 'candle' },
    ],
    headlines: [
      'Make your home smell like a weekend',
      'Slow mornings start here',
      'Hand-poured in small batches',
      'The candle our customers reorder most',
      'Cozy, bottled',
      'Little luxuries for every room',
      'Your space, only calmer',
      'Gifts they will actually use',
    ],
    benefits: [
      'Clean-burning soy wax · 60-hour burn',
      'Hand-poured in small batches',
      { line: 'Free shipping over 50', offer: 'free_shipping' },
      'Non-toxic, always',
      'Ships in plastic-free packaging',
    ],
    quotes: [
      'My whole apartment smells incredible.',
      'I have gifted this to everyone I know.',
      'Worth every cent. Burns forever.',
      'It is the first thing guests ask about.',
    ],
    before: 'Bland, stuffy rooms',
    after: 'A home that feels like you',
  },
  Pets: {
    products: [
      { name: 'Grain-Free Kibble', shape: 'pouch' },
      { name: 'Salmon Skin Treats', shape: 'pouch' },
      { name: 'Calming Chews', shape: 'tub' },
      { name: 'Dental Sticks', shape: 'box' },
    ],
    headlines: [
      'Real food for good dogs',
      'Vet-approved. Dog-obsessed.',
      'What your cat would order',
      'Happier guts, shinier coats',
      'Treats with 1 ingredient',
      'The bowl-licking test: passed',
      'Calmer walks start here',
      'Fresh food, delivered',
    ],
    benefits: [
      'Vet formulated · Human-grade',
      'No fillers, no by-products',
      'Made with real salmon',
      { line: 'Your first bag is on us', offer: 'discount' },
      'Loved by 80,000 pets',
    ],
    quotes: [
      'My picky eater cleans the bowl now.',
      'His coat has never been this shiny.',
      'She does a little dance when I open the bag.',
      'No more upset stomachs. Game changer.',
    ],
    before: 'Picky, itchy, bored',
    after: 'Shiny coat, clean bowl',
  },
  'Coffee & Tea': {
    products: [
      { name: 'Single-Origin Beans', shape: 'pouch' },
      { name: 'Ceremonial Matcha', shape: 'tin' },
      { name: 'Cold Brew', shape: 'can' },
      { name: 'Earl Grey Loose Leaf', shape: 'tin' },
    ],
    headlines: [
      'Café-quality coffee at home',
      'Your new morning ritual',
      'Roasted to order, shipped in 48 hours',
      'Smooth energy, no jitters',
      'The matcha that converts coffee drinkers',
      'Better coffee, on repeat',
      'Taste the origin',
      'Cold brew, ready when you are',
    ],
    benefits: [
      'Single origin · Roasted weekly',
      'Organic · Fair trade',
      'Skip, pause or cancel anytime',
      'Ceremonial grade, stone-ground',
      { line: 'Free shipping on subscriptions', offer: 'free_shipping' },
    ],
    quotes: [
      'I stopped going to coffee shops.',
      'Smoothest cup I have ever made at home.',
      'Calm focus without the crash.',
      'My mornings are better. Simple as that.',
    ],
    before: 'Bitter, burnt coffee',
    after: 'Smooth, bright, balanced',
  },
  Fitness: {
    products: [
      { name: 'Whey Isolate', shape: 'tub' },
      { name: 'Electrolyte Sticks', shape: 'box' },
      { name: 'Insulated Shaker', shape: 'shaker' },
      { name: 'Clean Pre-Workout', shape: 'tub' },
    ],
    headlines: [
      'Recover like a pro',
      '25 g protein. Zero bloat.',
      'Train harder tomorrow',
      'Hydration that keeps up',
      'Your gym bag’s new MVP',
      'Built for the last rep',
      'Strength, simplified',
      'Fuel that tastes like dessert',
    ],
    benefits: [
      'Third-party tested for sport',
      '25 g protein per scoop',
      'No artificial sweeteners',
      { line: 'Free shaker with first order', offer: 'bundle' },
      'Mixes clean, no clumps',
    ],
    quotes: [
      'Best-tasting protein I have ever had.',
      'I actually look forward to leg day now.',
      'Zero bloating. Finally.',
      'My recovery is noticeably faster.',
    ],
    before: 'Sore for days',
    after: 'Ready for the next session',
  },
  Haircare: {
    products: [
      { name: 'Repair Shampoo', shape: 'pump' },
      { name: 'Scalp Serum', shape: 'dropper' },
      { name: 'Curl Cream', shape: 'tube' },
      { name: 'Bond Mask', shape: 'jar' },
    ],
    headlines: [
      'Hair that listens',
      'Salon results in your shower',
      'Repair from root to tip',
      'Curls, defined',
      'Frizz has met its match',
      'Stronger hair in 4 weeks',
      'Less breakage, more shine',
      'The mask stylists keep stealing',
    ],
    benefits: [
      'Sulfate-free · Color safe',
      'Clinically shown to reduce breakage',
      'For every hair type',
      'Vegan & cruelty-free',
      { line: 'Free travel size with every order', offer: 'bundle' },
    ],
    quotes: [
      'My hair feels like it did at 18.',
      'My stylist asked what I am using.',
      'Zero frizz, even in humidity.',
      'Softest my curls have ever been.',
    ],
    before: 'Dry, frizzy, breaking',
    after: 'Soft, strong, shiny',
  },
  Sleep: {
    products: [
      { name: 'Cooling Pillow', shape: 'pillow' },
      { name: 'Lavender Pillow Mist', shape: 'spray' },
      { name: 'Sleep Gummies', shape: 'pillBottle' },
      { name: 'Silk Sleep Mask', shape: 'eyeMask' },
    ],
    headlines: [
      'Fall asleep in 15 minutes',
      'Sleep cooler, wake up kinder',
      'Your best sleep starts tonight',
      'Tired of waking up tired?',
      '100 nights to fall in love',
      'The pillow that fixed my neck',
      'Wind down, naturally',
      'Deep sleep, no grogginess',
    ],
    benefits: [
      '100-night trial',
      'Cooling, breathable fabric',
      'Melatonin-free formula',
      { line: 'Free shipping & returns', offer: 'free_shipping' },
      'Designed with sleep scientists',
    ],
    quotes: [
      'First full night of sleep in years.',
      'I do not wake up sweaty anymore.',
      'I wake up before my alarm now.',
      'Best purchase of the year, easily.',
    ],
    before: 'Restless nights',
    after: '8 hours, uninterrupted',
  },
  Snacks: {
    products: [
      { name: 'Protein Bar', shape: 'bar' },
      { name: 'Chili Lime Chips', shape: 'pouch' },
      { name: 'Prebiotic Soda', shape: 'can' },
      { name: 'Nut Butter Cups', shape: 'box' },
    ],
    headlines: [
      'Snacks that love you back',
      'All the crunch, none of the junk',
      '15 g protein. Tastes like a treat.',
      'Your 3 pm snack, upgraded',
      'Ingredients you can pronounce',
      'Gut-friendly soda that slaps',
      'Sweet tooth, meet your match',
      'Snack like you mean it',
    ],
    benefits: [
      'Gluten-free · No added sugar',
      'Plant-based protein',
      'Only 5 ingredients',
      'Try the variety pack',
      'Less than 5 g sugar',
    ],
    quotes: [
      'I hide these from my kids.',
      'Tastes like a candy bar. Is not one.',
      'Ordered the variety pack, now I am hooked.',
      'The only bar I actually crave.',
    ],
    before: 'Sugar-crash snacks',
    after: 'Real food, real energy',
  },
  Jewelry: {
    products: [
      { name: 'Signet Ring', shape: 'ring' },
      { name: 'Solitaire Ring', shape: 'ring' },
      { name: 'Pendant Necklace', shape: 'necklace' },
      { name: 'Coin Necklace', shape: 'necklace' },
    ],
    headlines: [
      'Everyday gold, made to stay on',
      'Fine jewelry without the markup',
      'Gifts that get remembered',
      'Stack it. Layer it. Keep it.',
      'Waterproof. Tarnish-free.',
      'Made for the moments in between',
      'The ring everyone is asking about',
      'Heirlooms for right now',
    ],
    benefits: [
      '14k gold vermeil · Hypoallergenic',
      'Engraving on request',
      'Lifetime warranty',
      'Recycled gold & silver',
      'Gift-ready packaging',
    ],
    quotes: [
      'I have not taken it off in months.',
      'It still looks brand new.',
      'The perfect gift. She cried.',
      'Compliments every single day.',
    ],
    before: 'Tarnished in a week',
    after: 'Waterproof, still golden',
  },
  'Tech Accessories': {
    products: [
      { name: 'Magnetic Phone Case', shape: 'phoneCase' },
      { name: 'Wireless Earbuds', shape: 'earbuds' },
      { name: 'Pocket Power Bank', shape: 'powerBank' },
      { name: 'Slim Clear Case', shape: 'phoneCase' },
    ],
    headlines: [
      'Charge everything. Carry nothing.',
      'The case that survives everything',
      'Drop-tested from 10 feet',
      'Sound that fits your life',
      'Your desk, finally tidy',
      'One cable to rule them all',
      'Power for the whole weekend',
      'Designed for the way you work',
    ],
    benefits: [
      'Lifetime warranty',
      'Fast charging · 30W',
      'Drop protection you can trust',
      { line: 'Free shipping over 35', offer: 'free_shipping' },
      '2-year warranty',
    ],
    quotes: [
      'Dropped it down the stairs. Not a scratch.',
      'Battery lasts my whole trip.',
      'Minimal, tough and it looks great.',
      'Best tech purchase I made this year.',
    ],
    before: 'Tangled cables, dead phone',
    after: 'One dock, all charged',
  },
};

/**
 * What an ad's offer fact (public.ads.offer) can be. A gift with the order
 * counts as a bundle: something more comes in the box for the same money.
 */
export type DemoOfferKind = 'discount' | 'free_shipping' | 'bundle' | 'none';
export type DemoPromotionKind = Exclude<DemoOfferKind, 'none'>;

/** The pills an Offer creative draws above its figure, true for those that set a time limit. */
export const OFFER_PILLS = { 'LIMITED TIME': true, 'THIS WEEK ONLY': true, 'TODAY ONLY': true, 'WHILE STOCKS LAST': true, 'NEW CUSTOMERS': false } as const;
export type OfferPill = keyof typeof OFFER_PILLS;

export interface DemoOffer {
  line: string;
  badge: string;
  /** The big number of an Offer creative, e.g. '20%'. */
  figure: string;
  figureCaption: string;
  tag: DemoTag;
  cta: string;
  /** The offer fact every word of it states; 'none' for news that promises no saving (a badge, never an Offer creative). */
  kind: DemoOfferKind;
  /** The pills that fit it on an Offer creative; empty for news. */
  pills: readonly OfferPill[];
}

export const OFFERS: readonly DemoOffer[] = [
  { line: '20% off your first order', badge: '20% OFF', figure: '20%', figureCaption: 'OFF YOUR FIRST ORDER', tag: 'Discount', cta: 'Claim 20% Off', kind: 'discount', pills: ['LIMITED TIME', 'THIS WEEK ONLY', 'NEW CUSTOMERS'] },
  { line: 'Buy 2, get 1 free', badge: 'BUY 2 GET 1', figure: '3 for 2', figureCaption: 'MIX & MATCH', tag: 'Bundle', cta: 'Build Your Bundle', kind: 'bundle', pills: ['LIMITED TIME', 'THIS WEEK ONLY', 'TODAY ONLY'] },
  { line: 'Free shipping on every order', badge: 'FREE SHIPPING', figure: 'FREE', figureCaption: 'SHIPPING ON EVERY ORDER', tag: 'Free Shipping', cta: 'Shop Now', kind: 'free_shipping', pills: ['LIMITED TIME', 'THIS WEEK ONLY', 'TODAY ONLY'] },
  { line: 'Save 25% when you subscribe', badge: 'SAVE 25%', figure: '25%', figureCaption: 'OFF EVERY DELIVERY', tag: 'Subscription', cta: 'Subscribe & Save', kind: 'discount', pills: ['NEW CUSTOMERS', 'LIMITED TIME'] },
  { line: 'Bundle & save up to 30%', badge: 'BUNDLE & SAVE', figure: '30%', figureCaption: 'OFF BUNDLES', tag: 'Bundle', cta: 'Shop Bundles', kind: 'bundle', pills: ['LIMITED TIME', 'THIS WEEK ONLY'] },
  { line: 'New: limited edition drop', badge: 'NEW', figure: 'NEW', figureCaption: 'LIMITED EDITION', tag: 'Limited Edition', cta: 'Shop the Drop', kind: 'none', pills: [] },
  { line: 'Free gift with orders over 60', badge: 'FREE GIFT', figure: 'GIFT', figureCaption: 'FREE WITH ORDERS OVER 60', tag: 'Free Gift', cta: 'Get Yours', kind: 'bundle', pills: ['LIMITED TIME', 'WHILE STOCKS LAST'] },
  { line: 'Try it risk-free for 30 days', badge: '30-DAY TRIAL', figure: '30', figureCaption: 'DAYS RISK-FREE', tag: 'Risk-Free', cta: 'Try It Today', kind: 'none', pills: [] },
  { line: 'Back in stock, selling fast', badge: 'BACK IN STOCK', figure: 'BACK', figureCaption: 'IN STOCK, SELLING FAST', tag: 'Bestseller', cta: 'Shop Now', kind: 'none', pills: [] },
  { line: '15% off with code HELLO15', badge: '15% OFF', figure: '15%', figureCaption: 'OFF WITH CODE HELLO15', tag: 'Discount', cta: 'Shop Now', kind: 'discount', pills: ['NEW CUSTOMERS', 'TODAY ONLY'] },
];

/** The offers an Offer creative can lead with: a saving, not news. */
export const PROMOTIONS: readonly DemoOffer[] = OFFERS.filter((offer) => offer.kind !== 'none');

/** Every Black Friday offer is a discount and says nothing of another kind of offer. */
export interface BlackFridayOffer {
  headline: string;
  figure: string;
  caption: string;
}

export const BLACK_FRIDAY_OFFERS: readonly BlackFridayOffer[] = [
  { headline: 'Our biggest sale of the year', figure: '50% OFF', caption: 'UP TO, SITEWIDE' },
  { headline: 'Everything. Everywhere. On sale.', figure: '40% OFF', caption: 'SITEWIDE' },
  { headline: 'The only sale we run all year', figure: '30% OFF', caption: 'EVERYTHING' },
  { headline: 'Stock up before it is gone', figure: '35% OFF', caption: 'ON ALL ORDERS' },
  { headline: 'Early access is live', figure: '45% OFF', caption: 'ON GIFT SETS' },
  { headline: 'Doorbusters, all weekend', figure: '60% OFF', caption: 'SELECT BESTSELLERS' },
];

export const BLACK_FRIDAY_FOOTNOTES = ['Ends Monday at midnight', 'While stocks last', 'Sitewide · No code needed', 'Cyber Monday included'];

/** The curated hooks (angles) of the demo library, managed by the admin like categories. */
export const DEMO_HOOKS = [
  'Discount',
  'Social proof',
  'Before/after',
  'Problem/solution',
  'Unboxing',
  'Founder story',
  'Testimonial',
  'Comparison',
  'Limited time',
  'Bundle value',
] as const;
export type DemoHook = (typeof DEMO_HOOKS)[number];

export const CALLS_TO_ACTION = ['Shop Now', 'Shop Now', 'Get Yours', 'Try It Today', 'Order Now', 'Learn More', 'Shop the Collection'];

export const REVIEWERS = ['Maya K.', 'Jordan P.', 'Priya S.', 'Elena R.', 'Sam T.', 'Chloe M.', 'Marcus L.', 'Aisha B.', 'Noah W.', 'Hannah G.'];

export const UGC_HOOKS = ['POV:', 'Okay but', 'Not me', 'Honest review:', 'Day 14:', 'Me after'];

export const UGC_LINES = [
  'I finally found one that works',
  'my friends keep asking about this',
  'obsessed is an understatement',
  'why did nobody tell me sooner',
  'the hype is real',
  'added to cart immediately',
];
