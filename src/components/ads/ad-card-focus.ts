/**
 * Keyboard focus on the cards of the grids on the page. A grid keeps only the
 * cards near the viewport in the DOM, so "focus that ad's card" is asked of
 * the grids, which bring the card in (and into view) first when needed.
 */

/** Marks a card's main control: the link that opens the ad, or a locked card's unlock button. */
export const CARD_PRIMARY_ATTRIBUTE = 'data-card-primary';

type CardFocuser = (adId: string) => boolean;

const focusers = new Set<CardFocuser>();

/** A grid offers to focus its cards; the returned function withdraws the offer. */
export function registerCardFocuser(focuser: CardFocuser): () => void {
  focusers.add(focuser);
  return () => {
    focusers.delete(focuser);
  };
}

/** Focuses the main control of the ad's card in a grid on the page; false when no grid on the page lists the ad. */
export function focusAdCard(adId: string): boolean {
  for (const focuser of focusers) if (focuser(adId)) return true;
  return false;
}

/** Focuses a card's main control; the page scrolls only when no part of the card is on screen, so a list keeps its place. */
export function focusCardIn(slot: Element): boolean {
  const target = slot.querySelector<HTMLElement>(`[${CARD_PRIMARY_ATTRIBUTE}]`) ?? slot.querySelector<HTMLElement>('a[href], button:not([disabled])');
  if (!target) return false;
  const box = slot.getBoundingClientRect();
  if (box.bottom <= 0 || box.top >= window.innerHeight) slot.scrollIntoView({ block: 'center' });
  target.focus({ preventScroll: true });
  return true;
}
