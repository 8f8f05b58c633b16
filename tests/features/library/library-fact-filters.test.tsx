// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HOOKS } from '../support/ad-fixtures.ts';
import { fakeSupabase } from '../support/fake-supabase.ts';
import { lastListAdsQuery, listAdsQueries } from '../support/list-ads-query.ts';
import { openFilterPanel, panelToggle } from '../support/filter-panel.ts';
import { renderApp, setUpAppTests } from '../support/render-app.tsx';

vi.mock('../../../src/lib/supabase-client.ts', async () => ({ supabase: (await import('../support/fake-supabase.ts')).fakeSupabase.client }));
vi.mock('../../../src/features/boards/components/sidebar-collections.tsx', () => ({ SidebarCollections: () => null }));

const listCalls = () => fakeSupabase.callsOf('list_ads');
const lastListCall = lastListAdsQuery;
const [beforeAfter, socialProof] = HOOKS as [(typeof HOOKS)[0], (typeof HOOKS)[0]];

const NO_FACTS = {
  platforms: null,
  format: null,
  offer: null,
  hook_ids: null,
  language: null,
  country: null,
  min_running_days: null,
  still_running: null,
  sort: 'newest',
};

const chipNames = () =>
  within(screen.getByRole('list', { name: 'Active filters' }))
    .getAllByRole('button')
    .map((chip) => chip.getAttribute('aria-label') ?? chip.textContent);

describe('the library’s facts filters and order', () => {
  setUpAppTests();

  it('asks for every ad, newest first, when the URL names no facts', async () => {
    renderApp('/library');
    await waitFor(() => expect(listCalls()).toHaveLength(1));
    expect(lastListCall()).toMatchObject(NO_FACTS);
  });

  it('reads every facts filter from the URL, the hook by name, and sends them with the order', async () => {
    renderApp('/library?platform=tiktok&platform=meta&format=video&offer=discount&hook=social%20PROOF&days=60&running=1&sort=longest&brand=Lumora');
    await waitFor(() => expect(listCalls()).toHaveLength(1));
    expect(lastListCall()).toMatchObject({
      platforms: ['meta', 'tiktok'],
      format: 'video',
      offer: 'discount',
      hook_ids: [socialProof.id],
      min_running_days: 60,
      still_running: true,
      sort: 'longest_running',
      cursor: null,
    });
    expect(chipNames()).toEqual([
      'Remove Brand: Lumora',
      'Remove Platform: Meta',
      'Remove Platform: TikTok',
      'Remove Format: Video',
      'Remove Offer: Discount',
      'Remove Hook: Social proof',
      'Remove Running at least 60 days',
      'Remove Still running',
      'Clear all',
    ]);
    expect((screen.getByRole('combobox', { name: 'Sort' }) as HTMLSelectElement).value).toBe('longest_running');
    // The Filters button counts the filters it holds (all but the brand).
    expect(screen.getByRole('button', { name: 'Filters, 7 active' })).toBeTruthy();
    expect((await panelToggle('Hook', 'Social proof')).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole('button', { name: 'Still running' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('ignores values that are not ours: never sent, and dropped from the URL', async () => {
    const app = renderApp('/library?platform=myspace&platform=tiktok&format=gif&offer=free&days=61&running=yes&sort=oldest&hook=No%20such%20hook&brand=Lumora');
    await waitFor(() => expect(app.currentUrl()).toBe('/library?brand=Lumora&platform=tiktok'));
    await waitFor(() => expect(listCalls().length).toBeGreaterThan(0));
    for (const query of listAdsQueries()) expect(query).toMatchObject({ ...NO_FACTS, platforms: ['tiktok'] });
  });

  it('writes each control to the URL and reloads the list from the start', async () => {
    const app = renderApp('/library');
    await waitFor(() => expect(listCalls()).toHaveLength(1));

    await openFilterPanel();
    fireEvent.change(screen.getByRole('combobox', { name: 'Format' }), { target: { value: 'carousel' } });
    await waitFor(() => expect(app.currentUrl()).toBe('/library?format=carousel'));
    fireEvent.change(screen.getByRole('combobox', { name: 'Offer' }), { target: { value: 'free_shipping' } });
    fireEvent.click(await panelToggle('Hook', beforeAfter.name));
    await waitFor(() => expect(app.currentUrl()).toContain('hook=Before+and+after'));
    const days = screen.getByRole('combobox', { name: 'Running at least' }) as HTMLSelectElement;
    expect([...days.options].map((option) => option.text)).toEqual(['Any run length', '7+ days', '30+ days', '60+ days', '90+ days', '180+ days', '365+ days']);
    fireEvent.change(days, { target: { value: '90' } });
    fireEvent.click(screen.getByRole('button', { name: 'Still running' }));

    fireEvent.click(await panelToggle('Platform', 'YouTube'));
    await waitFor(() => expect(app.currentUrl()).toContain('platform=youtube'));
    fireEvent.click(await panelToggle('Platform', 'Instagram'));

    await waitFor(() =>
      expect(app.currentUrl()).toBe(
        '/library?platform=instagram&platform=youtube&format=carousel&offer=free_shipping&hook=Before+and+after&days=90&running=1',
      ),
    );
    await waitFor(() =>
      expect(lastListCall()).toMatchObject({
        platforms: ['instagram', 'youtube'],
        format: 'carousel',
        offer: 'free_shipping',
        hook_ids: [beforeAfter.id],
        min_running_days: 90,
        still_running: true,
        cursor: null,
      }),
    );
  });

  it('sorts by the chosen order, the default left out of the URL', async () => {
    const app = renderApp('/library');
    await waitFor(() => expect(listCalls()).toHaveLength(1));
    const sort = screen.getByRole('combobox', { name: 'Sort' }) as HTMLSelectElement;
    expect([...sort.options].map((option) => option.text)).toEqual(['Sort: Newest', 'Sort: Longest running', 'Sort: Recently seen']);
    fireEvent.change(sort, { target: { value: 'recently_seen' } });
    await waitFor(() => expect(app.currentUrl()).toBe('/library?sort=recent'));
    await waitFor(() => expect(lastListCall().sort).toBe('recently_seen'));
    fireEvent.change(sort, { target: { value: 'newest' } });
    await waitFor(() => expect(app.currentUrl()).toBe('/library'));
    // The first answer is still cached: nothing more is asked.
    expect(listAdsQueries().map((query) => query.sort)).toEqual(['newest', 'recently_seen']);
  });

  it('orders by relevance while a search is typed, and offers newest instead', async () => {
    const app = renderApp('/library?q=glow');
    await waitFor(() => expect(listCalls()).toHaveLength(1));
    expect(lastListCall()).toMatchObject({ search: 'glow', sort: 'relevance' });
    const sort = screen.getByRole('combobox', { name: 'Sort' }) as HTMLSelectElement;
    expect(sort.value).toBe('relevance');
    expect([...sort.options].map((option) => option.value)).toEqual(['newest', 'longest_running', 'recently_seen', 'relevance']);
    fireEvent.change(sort, { target: { value: 'newest' } });
    await waitFor(() => expect(app.currentUrl()).toBe('/library?q=glow&sort=newest'));
    await waitFor(() => expect(lastListCall()).toMatchObject({ search: 'glow', sort: 'newest' }));
    fireEvent.change(sort, { target: { value: 'relevance' } });
    await waitFor(() => expect(app.currentUrl()).toBe('/library?q=glow'));
    expect(sort.value).toBe('relevance');
    expect(listAdsQueries().map((query) => query.sort)).toEqual(['relevance', 'newest']);
  });

  it('removes one filter per chip, and Clear all takes every filter off but keeps the search and the order', async () => {
    const app = renderApp('/library?q=glow&platform=tiktok&platform=meta&days=60&running=1&sort=longest');
    await waitFor(() => expect(listCalls()).toHaveLength(1));
    fireEvent.click(screen.getByRole('button', { name: 'Remove Platform: TikTok' }));
    await waitFor(() => expect(app.currentUrl()).toBe('/library?q=glow&platform=meta&days=60&running=1&sort=longest'));
    fireEvent.click(screen.getByRole('button', { name: 'Remove Running at least 60 days' }));
    await waitFor(() => expect(app.currentUrl()).toBe('/library?q=glow&platform=meta&running=1&sort=longest'));
    await waitFor(() => expect(lastListCall()).toMatchObject({ platforms: ['meta'], min_running_days: null, still_running: true }));
    fireEvent.click(screen.getByRole('button', { name: 'Clear all' }));
    await waitFor(() => expect(app.currentUrl()).toBe('/library?q=glow&sort=longest'));
    await waitFor(() => expect(lastListCall()).toMatchObject({ ...NO_FACTS, search: 'glow', sort: 'longest_running' }));
    expect(screen.queryByRole('list', { name: 'Active filters' })).toBeNull();
  });

  it('takes several hooks from the URL and sends their ids', async () => {
    const app = renderApp('/library?hook=social%20proof,Before%20and%20after');
    await waitFor(() => expect(listCalls()).toHaveLength(1));
    expect(lastListCall().hook_ids).toEqual([beforeAfter.id, socialProof.id].sort());
    expect((await panelToggle('Hook', 'Social proof')).getAttribute('aria-pressed')).toBe('true');
    expect((await panelToggle('Hook', 'Before and after')).getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Remove Hook: Social proof' }));
    await waitFor(() => expect(app.currentUrl()).toBe('/library?hook=Before+and+after'));
    await waitFor(() => expect(lastListCall().hook_ids).toEqual([beforeAfter.id]));
  });

  it('offers the languages and countries list_ad_locales names, most ads first, each by its name', async () => {
    renderApp('/library');
    await waitFor(() => expect(fakeSupabase.callsOf('list_ad_locales')).toHaveLength(1));
    await openFilterPanel();
    const language = screen.getByRole('combobox', { name: 'Language' }) as HTMLSelectElement;
    const country = screen.getByRole('combobox', { name: 'Country' }) as HTMLSelectElement;
    await waitFor(() => expect([...language.options].map((option) => [option.value, option.text])).toEqual([['all', 'All languages'], ['en', 'English'], ['de', 'German']]));
    expect([...country.options].map((option) => [option.value, option.text])).toEqual([
      ['all', 'All countries'],
      ['US', 'United States'],
      ['DE', 'Germany'],
      ['FR', 'France'],
    ]);
  });

  it('writes the language and country chosen to the URL as codes and sends them', async () => {
    const app = renderApp('/library');
    await waitFor(() => expect(listCalls()).toHaveLength(1));
    await openFilterPanel();
    const language = screen.getByRole('combobox', { name: 'Language' });
    await waitFor(() => expect(within(language).getByRole('option', { name: 'German' })).toBeTruthy());
    fireEvent.change(language, { target: { value: 'de' } });
    fireEvent.change(screen.getByRole('combobox', { name: 'Country' }), { target: { value: 'FR' } });
    await waitFor(() => expect(app.currentUrl()).toBe('/library?language=de&country=FR'));
    await waitFor(() => expect(lastListCall()).toMatchObject({ language: 'de', country: 'FR', cursor: null }));
    expect(chipNames()).toEqual(['Remove Language: German', 'Remove Country: France', 'Clear all']);
    fireEvent.click(screen.getByRole('button', { name: 'Remove Country: France' }));
    await waitFor(() => expect(app.currentUrl()).toBe('/library?language=de'));
    expect(chipNames()).toEqual(['Remove Language: German']);
    expect((screen.getByRole('combobox', { name: 'Country' }) as HTMLSelectElement).value).toBe('all');
  });

  it('drops a language or country that is malformed or has no ads from the URL, and never sends it', async () => {
    const app = renderApp('/library?language=deu&country=JP&brand=Lumora');
    await waitFor(() => expect(app.currentUrl()).toBe('/library?brand=Lumora'));
    await waitFor(() => expect(listCalls().length).toBeGreaterThan(0));
    for (const query of listAdsQueries()) expect(query).toMatchObject({ language: null, country: null });
    app.unmount();

    // A code in the other case is the same code.
    const second = renderApp('/library?language=DE&country=fr');
    await waitFor(() => expect(lastListCall()).toMatchObject({ language: 'de', country: 'FR' }));
    expect(second.currentUrl()).toBe('/library?language=DE&country=fr');
  });

  it('keeps a well-formed language when list_ad_locales fails, and shows it', async () => {
    fakeSupabase.onRpc('list_ad_locales', () => ({ data: null, error: { message: 'boom' } }));
    const app = renderApp('/library?language=fr');
    await waitFor(() => expect(lastListCall()).toMatchObject({ language: 'fr' }));
    await openFilterPanel();
    expect((screen.getByRole('combobox', { name: 'Language' }) as HTMLSelectElement).selectedOptions[0]!.text).toBe('French');
    expect(app.currentUrl()).toBe('/library?language=fr');
  });

  describe('under 768 px', () => {
    afterEach(() => vi.unstubAllGlobals());

    it('puts the order and every facts filter in the sheet, counted on the Filters button', async () => {
      vi.stubGlobal(
        'matchMedia',
        vi.fn((query: string) => ({ matches: query.includes('max-width: 767px'), media: query, addEventListener() {}, removeEventListener() {} })),
      );
      const app = renderApp('/library?platform=tiktok&days=60');
      await waitFor(() => expect(listCalls()).toHaveLength(1));
      expect(screen.queryByRole('combobox', { name: 'Sort' })).toBeNull();
      const button = screen.getByRole('button', { name: 'Filters, 2 active' });
      await act(async () => fireEvent.click(button));
      const sheet = await screen.findByRole('dialog', { name: 'Filters' });
      for (const name of ['Sort', 'Format', 'Offer', 'Language', 'Country', 'Running at least']) expect(within(sheet).getByRole('combobox', { name })).toBeTruthy();
      expect(within(sheet).getByRole('group', { name: 'Hook' })).toBeTruthy();
      expect(within(sheet).getByRole('button', { name: 'TikTok', pressed: true })).toBeTruthy();
      fireEvent.change(within(sheet).getByRole('combobox', { name: 'Sort' }), { target: { value: 'longest_running' } });
      fireEvent.click(within(sheet).getByRole('button', { name: 'Still running', pressed: false }));
      await waitFor(() => expect(app.currentUrl()).toBe('/library?platform=tiktok&days=60&running=1&sort=longest'));
      await waitFor(() => expect(lastListCall()).toMatchObject({ platforms: ['tiktok'], min_running_days: 60, still_running: true, sort: 'longest_running' }));
      // The page behind the open sheet is hidden from assistive technology: the count is read from the button itself.
    expect(button.getAttribute('aria-label')).toBe('Filters, 3 active');
    });
  });
});
