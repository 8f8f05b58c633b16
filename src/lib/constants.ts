/** The spec's numbers, named as in the spec (section 9). */
export const FREE_AD_VIEW_LIMIT = 16;
export const AD_VIEWS_STORAGE_KEY = 'obyect_ad_views';
/** The ids behind that count, so that reopening an ad does not count it again. */
export const VIEWED_AD_IDS_STORAGE_KEY = 'obyect_viewed_ad_ids';
export const TRIAL_DAYS = 7;
export const PAGE_SIZE = 60;
export const ADMIN_PAGE_SIZE = 50;
export const TEASER_SHARE = 0.1;
export const SENTINEL_MARGIN_PX = 1200;
export const GRID_SKELETONS = 12;
export const FAVORITES_SKELETONS = 8;
export const SEARCH_DEBOUNCE_MS = 250;
export const ADMIN_SEARCH_DEBOUNCE_MS = 300;
/** A coupon code is looked up this long after the last keystroke. */
export const COUPON_PREVIEW_DEBOUNCE_MS = 400;
export const SWIPE_THRESHOLD_PX = 40;
export const CANCEL_COUNTDOWN_SECONDS = 5;
export const RESET_REDIRECT_MS = 1500;
export const PASSWORD_MIN_LENGTH = 6;
export const SIDEBAR_WIDTH_PX = 272;
export const SIDEBAR_COLLAPSED_WIDTH_PX = 72;
export const DRAWER_WIDTH_PX = 280;
export const SIDEBAR_COOKIE_DAYS = 7;
export const MOBILE_BREAKPOINT_PX = 768;
/** Masonry columns: 1 under 768 px, 2 under 1024, 3 under 1280, 4 above. */
export const GRID_BREAKPOINTS = { 767: 1, 1023: 2, 1279: 3, default: 4 } as const;
export const DISPLAY_WIDTHS = [480, 960] as const;
/** The largest file an upload may be: the storage refuses bigger ones from a browser (local/storage/upload-checks.ts). */
export const UPLOAD_MAX_BYTES = 20 * 1024 * 1024;
/** The largest video an upload may be: the ad-videos bucket's limit, checked again by the storage. */
export const VIDEO_UPLOAD_MAX_BYTES = 50 * 1024 * 1024;

/** Prices in euro cents. */
export const PRICES = {
  monthly: { perPeriodCents: 895, perMonthCents: 895 },
  annual: { perPeriodCents: 7518, perMonthCents: 627, savingCents: 3222, savingLabel: 'save ~30%' },
} as const;

/** The library's date filter options, newest cut-off last. */
export const DATE_RANGES = ['all', 'week', 'month', 'year'] as const;
/** How many columns of the grid count as its first row for eager image loading, at most. */
export const EAGER_ROW_MAX_COLUMNS = 4;
/** The server's limits on a listing query (list_ads): longer searches and more tags are refused. */
export const SEARCH_MAX_LENGTH = 100;
export const TAG_FILTER_MAX = 10;
/** The most brands, categories, types or hooks one listing query names (list_ads refuses more). */
export const FILTER_VALUES_MAX = 10;
/** The longest running-days filter list_ads takes (ten years); 1 is the shortest. */
export const RUNNING_DAYS_MAX = 3650;
/** Catalogue lists change rarely: cached for ten minutes. */
export const CATALOG_STALE_MS = 10 * 60_000;
/** Loaded pages of a list stay cached this long, so coming back from an ad restores them. */
export const AD_LIST_CACHE_MS = 30 * 60_000;
/** Document titles are cut to 60 characters, descriptions to 160 (spec section 5). */
export const DOCUMENT_TITLE_MAX_LENGTH = 60;
export const DOCUMENT_DESCRIPTION_MAX_LENGTH = 160;
/** The server's caps on what one user keeps in boards (decision record 0022); the texts of their errors name them. */
export const BOARDS_MAX = 500;
export const BOARD_DEPTH_MAX = 5;
export const BOARD_ADS_MAX = 5000;
export const FAVORITES_MAX = 10000;
export const BOARD_NAME_MAX_LENGTH = 100;
/** The catalogue's names (brands, categories, tags, types) are at most this long (their tables' checks). */
export const CATALOG_NAME_MAX_LENGTH = 80;
/** The admin edits or deletes at most this many ads in one change (admin_update_ads, admin_delete_ads). */
export const ADMIN_BATCH_MAX = 1000;

/** The id of every page's main region: the skip link's target (src/app/layout/skip-link.tsx). */
export const MAIN_CONTENT_ID = 'main-content';
