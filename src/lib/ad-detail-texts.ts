/**
 * The texts of the ad page and of sharing, word for word from the spec, kept apart from the texts every page needs (shell-texts.ts, library-texts.ts) so that
 * the library's first load does not carry them: the ad page and the share dialog are loaded when opened.
 */
export const AD_DETAIL_TEXTS = {
  adDetail: {
    close: 'Close',
    previous: 'Previous ad',
    next: 'Next ad',
    favorite: 'Add to favorites',
    unfavorite: 'Remove from favorites',
    share: 'Share',
    promoTitle: 'More winning creatives? Get started for free',
    promoAction: 'Browse the library',
    notFound: 'This ad could not be found.',
    backToLibrary: 'Back to Library',
    lockedTitle: 'This ad is for members',
    lockedBody: 'Subscribe to see every ad in full.',
    unlock: 'Unlock full access',
    download: 'Download original',
    downloadFailed: { title: 'Download failed', description: 'The original could not be downloaded. Please try again.' },
    loading: 'Loading ad',
    loadError: 'The ad could not be loaded.',
    tryAgain: 'Try again',
    added: (date: string) => `Added ${date}`,
    documentTitle: (brand: string) => `${brand} ad – Obyect`,
    fallbackDocumentTitle: 'Ad – Obyect',
    moreLikeThis: { title: 'More like this', loadError: 'Similar ads could not be loaded.' },
  },
  // The facts of an ad on its detail page: shown for locked ads too (docs/decisions/0031).
  share: {
    title: 'Share',
    description: 'Send this link to your team.',
    copyUrl: 'Copy URL',
    shareApple: 'Share via Apple',
    shareAndroid: 'Share via Android',
  },
} as const;
