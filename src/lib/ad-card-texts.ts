/**
 * The texts of an ad as every list and the ad page show it (its card, video, facts and the gate of a locked ad),
 * word for word from the spec.
 */
export const AD_CARD_TEXTS = {
  adCard: {
    // A video card's label holds the length its badge shows (the visible text is part of the name).
    open: (brand: string, videoLength: string | null = null) => (videoLength ? `Open ${brand} ad, video ${videoLength}` : `Open ${brand} ad`),
    locked: 'Unlock to view',
    lockedLabel: (brand: string, videoLength: string | null = null) =>
      videoLength ? `${brand} ad, video ${videoLength}, locked: unlock to view` : `${brand} ad, locked: unlock to view`,
    addToBoard: 'Add to board',
    delete: 'Delete ad',
    unknownBrand: 'Unknown brand',
    unknownCategory: 'Unknown category',
    videoLength: (label: string) => `Video, ${label}`,
  },
  adVideo: {
    playFailed: 'This video could not be played. Reload the page to try again.',
  },
  adFacts: {
    sectionLabel: 'Ad facts',
    running: (days: number) => `Running ${days.toLocaleString('en-US')} ${days === 1 ? 'day' : 'days'}`,
    stillRunning: 'Still running',
    /** Read after a card's running days, whose green dot says it to the eye. */
    stillRunningAfterDays: ', still running',
    seen: (from: string, to: string) => `Seen ${from} – ${to}`,
    firstSeen: (date: string) => `First seen ${date}`,
    headline: 'Headline',
    primaryText: 'Primary text',
    imageText: 'Text in the image',
    platforms: 'Platforms',
    format: 'Format',
    callToAction: 'Call to action',
    offer: 'Offer',
    hook: 'Hook',
    landingPage: 'Landing page',
    landingPageLabel: (host: string) => `Open the landing page at ${host} (new tab)`,
    language: 'Language',
    country: 'Country',
    platformNames: {
      meta: 'Meta',
      instagram: 'Instagram',
      tiktok: 'TikTok',
      youtube: 'YouTube',
      pinterest: 'Pinterest',
      snapchat: 'Snapchat',
      google: 'Google',
    },
    formatNames: { single_image: 'Single image', carousel: 'Carousel', video: 'Video' },
    placementNames: { feed: 'Feed', story: 'Story / reel', square: 'Square', portrait: 'Portrait', landscape: 'Landscape' },
    callToActionNames: {
      shop_now: 'Shop now',
      learn_more: 'Learn more',
      sign_up: 'Sign up',
      get_offer: 'Get offer',
      order_now: 'Order now',
      subscribe: 'Subscribe',
      download: 'Download',
      book_now: 'Book now',
      contact_us: 'Contact us',
      watch_more: 'Watch more',
    },
    offerNames: { discount: 'Discount', free_shipping: 'Free shipping', bundle: 'Bundle', none: 'No offer' },
  },
  gate: {
    title: 'Create your account to continue exploring winning ads',
    body: "You've reached your free 16-ad limit. Unlock unlimited browsing with a free account and subscribe anytime.",
    createAccount: 'Create account',
    notNow: 'Not now',
    footnote: "Already a member? You'll be taken to sign in.",
  },
} as const;
