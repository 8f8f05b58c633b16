import { describe, expect, it } from 'vitest';
import { DEMO_BANNERS } from '../../local/seed/seed-demo.ts';
import { BOARD_TEXTS } from '../../src/lib/board-texts.ts';
import { LIBRARY_TEXTS } from '../../src/lib/library-texts.ts';

/** What each page says under its banner: its title and subheading. */
const PAGE_WORDS = {
  library: [LIBRARY_TEXTS.library.heading],
  'black-friday': [BOARD_TEXTS.themedBoards.blackFriday.title, 'Black Friday', BOARD_TEXTS.themedBoards.blackFriday.subheading],
  'top-picks': [BOARD_TEXTS.themedBoards.topPicks.title, BOARD_TEXTS.themedBoards.topPicks.subheading],
} as const;

const folded = (text: string) => text.toLowerCase().replace(/[^a-z0-9 ]/g, '').trim();

describe('the demo page banners', () => {
  it.each(DEMO_BANNERS.map((banner) => [banner.page, banner] as const))('of %s do not repeat the title or subheading the page shows under them', (page, banner) => {
    for (const words of PAGE_WORDS[page]) {
      expect(folded(banner.title)).not.toContain(folded(words));
      expect(folded(banner.subtitle)).not.toContain(folded(words));
    }
  });
});
