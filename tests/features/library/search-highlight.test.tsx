// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { highlightParts, marksInside, searchWords } from '../../../src/features/ad-detail/lib/highlight.ts';
import { makeAd, makeFacts } from '../support/ad-fixtures.ts';
import { fakeSupabase, sessionFor } from '../support/fake-supabase.ts';
import { lastListAdsQuery, listAdsQuery } from '../support/list-ads-query.ts';
import { renderApp, setUpAppTests } from '../support/render-app.tsx';

vi.mock('../../../src/lib/supabase-client.ts', async () => ({ supabase: (await import('../support/fake-supabase.ts')).fakeSupabase.client }));
vi.mock('../../../src/features/boards/components/sidebar-collections.tsx', () => ({ SidebarCollections: () => null }));

/** The text with each marked part in brackets. */
const marked = (text: string, search: string, inside = false) =>
  highlightParts(text, searchWords(search), { inside })
    .map((part) => (part.marked ? `[${part.text}]` : part.text))
    .join('');

describe('marking the words of a search', () => {
  it('finds words whatever their case and accents, in either direction', () => {
    expect(marked('Crème brûlée for GLOWING skin', 'creme BRULEE glow')).toBe('[Crème] [brûlée] for [GLOW]ING skin');
    expect(marked('creme brulee', 'Crème Brûlée')).toBe('[creme] [brulee]');
    // An accent written as a character of its own stays with its letter.
    expect(marked('Cre\u0300me', 'cre')).toBe('[Cre\u0300]me');
  });

  it('marks a search word only where it starts a word, never inside one', () => {
    expect(marked('Glowing below the glow', 'low')).toBe('Glowing below the glow');
    expect(marked('Glowing below the glow', 'glo')).toBe('[Glo]wing below the [glo]w');
    expect(marked('shop.lumora.com', 'lumora')).toBe('shop.[lumora].com');
    expect(marked('50% OFF today', '50')).toBe('[50]% OFF today');
  });

  it('marks inside words only when the search begins no word of the ad’s texts', () => {
    expect(marked('Your 3 pm snack, upgraded', 'pgraded', true)).toBe('Your 3 pm snack, u[pgraded]');
    expect(marked('Crème brûlée, CRÈME', 'REME', true)).toBe('C[rème] brûlée, C[RÈME]');
    expect(marked('Cre\u0300me', 're', true)).toBe('C[re\u0300]me');
    // The ad's texts together decide: a word begun anywhere keeps every text to word starts.
    expect(marksInside(['Your 3 pm snack, upgraded', null, undefined], searchWords('pgraded'))).toBe(true);
    expect(marksInside(['Your 3 pm snack, upgraded', 'Pgraded goods'], searchWords('pgraded'))).toBe(false);
    expect(marksInside(['Glowing'], searchWords('glow'))).toBe(false);
    expect(marksInside(['Glowing'], [])).toBe(false);
  });

  it('prefers the longer word where two start at the same place, and splits a search on punctuation', () => {
    expect(marked('summer sale', 'sum summer')).toBe('[summer] sale');
    expect(marked('free shipping', 'free-shipping')).toBe('[free] [shipping]');
    expect(searchWords('  Glow, glow GLOW  ')).toEqual(['glow']);
    expect(searchWords('')).toEqual([]);
  });

  it('keeps markup in a text as plain text', () => {
    expect(highlightParts('<img src=x onerror=alert(1)> glow', searchWords('glow'))).toEqual([
      { text: '<img src=x onerror=alert(1)> ', marked: false },
      { text: 'glow', marked: true },
    ]);
    expect(marked('text', '')).toBe('text');
  });
});

describe('the ad detail opened from a search', () => {
  setUpAppTests();

  const facts = makeFacts({
    headline: 'Glow that survives a Monday',
    primary_text: 'Meet the Crème serum. Below <b>the</b> fold.',
    landing_url: 'https://www.glowlab.com/serum',
    image_text: 'GLOW DROPS\n<script>alert(1)</script> crème 20% off',
  });

  it('marks the words of the list’s search in the headline, primary text, landing host and image text, as plain text', async () => {
    const ad = makeAd({ facts });
    fakeSupabase.onRpc('list_ads', () => ({ data: { ads: [makeAd({ id: ad.id })], next_cursor: null }, error: null }));
    fakeSupabase.onRpc('get_ad', () => ({ data: ad, error: null }));
    renderApp('/library?q=glow%20creme');
    const [card] = await screen.findAllByTestId('ad-card');
    fireEvent.click(within(card!).getByRole('link', { name: 'Open Lumora ad' }));

    const section = await screen.findByRole('region', { name: 'Ad facts' });
    const image = await within(section).findByTestId('ad-image-text');
    expect(image.textContent).toBe('Text in the imageGLOW DROPS\n<script>alert(1)</script> crème 20% off');
    expect(image.querySelector('script')).toBeNull();
    const marks = [...section.querySelectorAll('mark')].map((mark) => mark.textContent);
    expect(marks).toEqual(['Glow', 'Crème', 'GLOW', 'crème', 'glow']);
    expect(within(section).getByRole('link', { name: /landing page/ }).querySelector('mark')?.textContent).toBe('glow');
  });

  it('marks nothing without a search, and shows no image text when there is none', async () => {
    const ad = makeAd({ facts: makeFacts({ headline: 'Glow that survives a Monday' }) });
    fakeSupabase.onRpc('get_ad', () => ({ data: ad, error: null }));
    renderApp(`/ads/${ad.id}`);
    const section = await screen.findByRole('region', { name: 'Ad facts' });
    expect(within(section).getByText('Glow that survives a Monday')).toBeTruthy();
    expect(section.querySelector('mark')).toBeNull();
    expect(within(section).queryByTestId('ad-image-text')).toBeNull();
  });

  it('marks a search found only inside words where it is, when it begins no word of the ad', async () => {
    const ad = makeAd({ facts: makeFacts({ headline: 'Your 3 pm snack, upgraded', primary_text: 'Plant-based protein', image_text: 'UPGRADED SNACKS' }) });
    fakeSupabase.onRpc('get_ad', () => ({ data: ad, error: null }));
    renderApp(`/ads/${ad.id}?q=pgraded`);
    const section = await screen.findByRole('region', { name: 'Ad facts' });
    await waitFor(() => expect([...section.querySelectorAll('mark')].map((mark) => mark.textContent)).toEqual(['pgraded', 'PGRADED']));
  });

  it('marks the search of an ad page’s own address', async () => {
    const ad = makeAd({ facts });
    fakeSupabase.onRpc('get_ad', () => ({ data: ad, error: null }));
    renderApp(`/ads/${ad.id}?q=drops`);
    const section = await screen.findByRole('region', { name: 'Ad facts' });
    await waitFor(() => expect([...section.querySelectorAll('mark')].map((mark) => mark.textContent)).toEqual(['DROPS']));
  });
});

describe('the arrows over a filtered library', () => {
  setUpAppTests();
  const USER_ID = '44444444-4444-4444-8444-444444444444';

  it('walk the list in its order and filters, wrapping at its ends, without asking for the whole library’s neighbours', async () => {
    fakeSupabase.session = sessionFor(USER_ID);
    fakeSupabase.onRpc('has_valid_access', () => ({ data: true, error: null }));
    fakeSupabase.onRpc('get_or_create_favorites_id', () => ({ data: '55555555-5555-4555-8555-555555555555', error: null }));
    const ads = [makeAd(), makeAd(), makeAd()];
    fakeSupabase.onRpc('list_ads', () => ({ data: { ads, next_cursor: null }, error: null }));
    fakeSupabase.onRpc('get_ad', (args) => ({ data: { ...ads.find((ad) => ad.id === args.p_id)!, facts: makeFacts() }, error: null }));
    const app = renderApp('/library?platform=tiktok&sort=longest');
    const cards = await screen.findAllByTestId('ad-card');
    fireEvent.click(within(cards[1]!).getByRole('link', { name: 'Open Lumora ad' }));
    await screen.findByTestId('ad-detail');

    const next = await screen.findByRole('button', { name: 'Next ad' });
    await waitFor(() => expect((next as HTMLButtonElement).disabled).toBe(false));
    fireEvent.keyDown(window, { key: 'ArrowRight' });
    await waitFor(() => expect(app.currentUrl()).toBe(`/ads/${ads[2]!.id}`));
    fireEvent.keyDown(window, { key: 'ArrowRight' });
    await waitFor(() => expect(app.currentUrl()).toBe(`/ads/${ads[0]!.id}`));
    fireEvent.keyDown(window, { key: 'ArrowLeft' });
    await waitFor(() => expect(app.currentUrl()).toBe(`/ads/${ads[2]!.id}`));
    expect(fakeSupabase.callsOf('get_ad_neighbours')).toHaveLength(0);
  });

  it('loads the next page of the list past its last loaded ad', async () => {
    fakeSupabase.session = sessionFor(USER_ID);
    fakeSupabase.onRpc('has_valid_access', () => ({ data: true, error: null }));
    fakeSupabase.onRpc('get_or_create_favorites_id', () => ({ data: '55555555-5555-4555-8555-555555555555', error: null }));
    const first = Array.from({ length: 60 }, () => makeAd());
    const more = makeAd();
    fakeSupabase.onRpc('list_ads', (args) => ({ data: listAdsQuery(args).cursor ? { ads: [more], next_cursor: null } : { ads: first, next_cursor: 'next' }, error: null }));
    fakeSupabase.onRpc('get_ad', (args) => ({ data: { ...[...first, more].find((ad) => ad.id === args.p_id)!, facts: makeFacts() }, error: null }));
    const app = renderApp(`/library?days=60`);
    const cards = await screen.findAllByTestId('ad-card');
    fireEvent.click(within(cards.find((card) => card.dataset.adId === first[59]!.id)!).getByRole('link', { name: 'Open Lumora ad' }));
    await screen.findByTestId('ad-detail');
    await waitFor(() => expect((screen.getByRole('button', { name: 'Next ad' }) as HTMLButtonElement).disabled).toBe(false));
    fireEvent.keyDown(window, { key: 'ArrowRight' });
    await waitFor(() => expect(app.currentUrl()).toBe(`/ads/${more.id}`));
    expect(lastListAdsQuery()).toMatchObject({ cursor: 'next', min_running_days: 60 });
  });
});
