// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AdCard } from '../../../src/components/ads/ad-card.tsx';
import type { Ad } from '../../../src/lib/ad-schema.ts';
import { adSchema } from '../../../src/lib/ad-schema.ts';
import { runningDays } from '../../../src/lib/ad-facts.ts';
import { makeAd } from '../support/ad-fixtures.ts';

function renderCard(ad: Ad) {
  return render(
    <MemoryRouter>
      <AdCard ad={ad} sizes="300px" eager={false} highPriority={false} onLockedClick={() => {}} onAddToBoard={() => {}} />
    </MemoryRouter>,
  );
}

const ranOnTikTokAndMeta = { platforms: ['tiktok', 'meta'], first_seen: '2026-08-24', last_seen: '2026-11-20', still_running: true };

describe('the facts on a card', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-25T23:30:00Z'));
  });
  afterEach(() => {
    vi.useRealTimers();
    cleanup();
  });

  it('shows how many days a still running ad has run, to today, and its platforms by name', () => {
    renderCard(makeAd(ranOnTikTokAndMeta));
    const chip = screen.getByTestId('ad-card-facts');
    expect(chip.textContent).toContain('Running 94 days');
    expect(chip.textContent).toContain('still running');
    const platforms = within(chip).getByRole('list', { name: 'Platforms' });
    expect(within(platforms).getAllByRole('img').map((icon) => icon.getAttribute('aria-label'))).toEqual(['TikTok', 'Meta']);
  });

  it('shows the facts on a locked card, under its blurred preview and outside the lock, without a Tab stop of its own', () => {
    renderCard(makeAd({ ...ranOnTikTokAndMeta, still_running: false, locked: true }));
    const card = screen.getByTestId('ad-card');
    expect(card.dataset.locked).toBe('true');
    const chip = within(card).getByTestId('ad-card-facts');
    expect(chip.textContent).toContain('Running 89 days');
    expect(chip.textContent).not.toContain('still running');
    expect(within(chip).getByRole('img', { name: 'Meta' })).toBeTruthy();
    // Not inside the lock button (whose label would hide it), after it: a strip under the image, not over it.
    const lockButton = within(card).getByRole('button', { name: /locked|subscribe|unlock/i });
    expect(lockButton.contains(chip)).toBe(false);
    expect(lockButton.compareDocumentPosition(chip) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(chip.querySelectorAll('a, button, [tabindex]')).toHaveLength(0);
    expect([...chip.classList]).toEqual(expect.arrayContaining(['h-8']));
    expect([...chip.classList]).not.toContain('absolute');
  });

  it('shows only the platforms when the ad has no dates, and only the days without platforms', () => {
    renderCard(makeAd({ platforms: ['youtube'] }));
    expect(screen.getByTestId('ad-card-facts').textContent).not.toMatch(/Running/);
    expect(screen.getByRole('img', { name: 'YouTube' })).toBeTruthy();
    cleanup();
    renderCard(makeAd({ platforms: null, first_seen: '2026-11-25', last_seen: '2026-11-25', still_running: false }));
    expect(screen.getByTestId('ad-card-facts').textContent).toMatch(/Running 1 day(?!s)/);
    expect(screen.queryByRole('list', { name: 'Platforms' })).toBeNull();
  });

  it('shows an empty strip of the same height for an ad without facts, an ended ad without a last seen day, or an answer from before the facts', () => {
    renderCard(makeAd({ platforms: null, first_seen: null, last_seen: null, still_running: false }));
    renderCard(makeAd({ first_seen: '2026-10-01', last_seen: null, still_running: false }));
    renderCard(makeAd());
    expect(screen.getAllByTestId('ad-card')).toHaveLength(3);
    expect(screen.queryByTestId('ad-card-facts')).toBeNull();
    expect(screen.queryByText(/Running/)).toBeNull();
    // Every card ends in a strip of the same height: the grid's card chrome is one constant.
    for (const card of screen.getAllByTestId('ad-card')) expect([...(card.lastElementChild?.classList ?? [])]).toContain('h-8');
  });

  it('counts running days with the database\'s rule: UTC days, both ends, a running ad never less than to its last seen', () => {
    const now = new Date('2026-11-25T23:30:00Z');
    expect(runningDays('2026-08-24', '2026-11-25', false, now)).toBe(94);
    expect(runningDays('2026-11-16', '2026-11-21', true, now)).toBe(10);
    expect(runningDays('2026-11-16', '2026-11-21', false, now)).toBe(6);
    expect(runningDays('2026-11-16', null, false, now)).toBeNull();
    expect(runningDays('2026-11-25', null, true, now)).toBe(1);
    expect(runningDays('2026-11-20', '2026-11-26', true, now)).toBe(7);
    expect(runningDays(null, null, true, now)).toBeNull();
    expect(runningDays('2026-02-30', null, true, now)).toBeNull();
  });

  it('accepts the card facts in the ad schema, optional, and refuses a day that is not a date', () => {
    expect(adSchema.safeParse(makeAd(ranOnTikTokAndMeta)).success).toBe(true);
    expect(adSchema.safeParse(makeAd()).success).toBe(true);
    expect(adSchema.safeParse(makeAd({ platforms: null, first_seen: null, last_seen: null, still_running: false })).success).toBe(true);
    expect(adSchema.safeParse({ ...makeAd(), first_seen: '24/08/2026' }).success).toBe(false);
    expect(adSchema.safeParse({ ...makeAd(), still_running: 'yes' }).success).toBe(false);
    expect(adSchema.safeParse({ ...makeAd(), platforms: [''] }).success).toBe(false);
  });
});
