// @vitest-environment jsdom
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { makeAd, makeFacts } from '../support/ad-fixtures.ts';
import { fakeSupabase } from '../support/fake-supabase.ts';
import { renderApp, setUpAppTests } from '../support/render-app.tsx';

vi.mock('../../../src/lib/supabase-client.ts', async () => ({ supabase: (await import('../support/fake-supabase.ts')).fakeSupabase.client }));

const everyFact = makeFacts({
  platforms: ['meta', 'instagram', 'tiktok'],
  placement: 'feed',
  placement_derived: false,
  format: 'single_image',
  first_seen: '2026-08-24',
  last_seen: '2026-11-25',
  still_running: true,
  running_days: 94,
  landing_url: 'https://www.lumora.com/products/serum?utm_source=meta',
  primary_text: 'Meet the Vitamin C Serum.\nVisible glow in 14 days.',
  headline: 'Glow that survives a Monday',
  call_to_action: 'shop_now',
  offer: 'free_shipping',
  hook_id: 'a0000000-0000-4000-8000-00000000000a',
  hook_name: 'Social proof',
  language: 'en',
  country: 'US',
});

function serve(ad: ReturnType<typeof makeAd>) {
  fakeSupabase.onRpc('get_ad', () => ({ data: ad, error: null }));
}

describe('the ad detail’s facts', () => {
  setUpAppTests();

  it('shows every fact of a still running ad, the landing page host as a link opening apart', async () => {
    const ad = makeAd({ facts: everyFact });
    serve(ad);
    renderApp(`/ads/${ad.id}`);
    const facts = await screen.findByRole('region', { name: 'Ad facts' });
    expect(within(facts).getByTestId('ad-running-days').textContent).toBe('Running 94 days');
    expect(within(facts).getByText('Still running')).toBeTruthy();
    expect(within(facts).getByText('First seen Aug 24, 2026')).toBeTruthy();
    const platforms = within(facts).getByRole('list', { name: 'Platforms' });
    expect(within(platforms).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['Meta', 'Instagram', 'TikTok']);
    expect(within(facts).getByText('Glow that survives a Monday')).toBeTruthy();
    expect(facts.textContent).toContain('Visible glow in 14 days.');
    const term = (name: string) => within(facts).getByText(name, { selector: 'dt' }).nextElementSibling?.textContent;
    expect(term('Format')).toBe('Single image · Feed');
    expect(term('Call to action')).toBe('Shop now');
    expect(term('Offer')).toBe('Free shipping');
    expect(term('Hook')).toBe('Social proof');
    expect(term('Language')).toBe('English');
    expect(term('Country')).toBe('United States');
    const landing = within(facts).getByRole('link', { name: 'Open the landing page at lumora.com (new tab)' });
    expect(landing.getAttribute('href')).toBe('https://www.lumora.com/products/serum?utm_source=meta');
    expect(landing.getAttribute('target')).toBe('_blank');
    expect(landing.getAttribute('rel')).toBe('noopener noreferrer');
  });

  it('shows an ended run with its dates, and the facts of a locked ad beside its locked image', async () => {
    const ad = makeAd({
      locked: true,
      facts: makeFacts({ first_seen: '2026-01-01', last_seen: '2026-01-01', running_days: 1, headline: 'One day only' }),
    });
    serve(ad);
    renderApp(`/ads/${ad.id}`);
    const facts = await screen.findByRole('region', { name: 'Ad facts' });
    expect(screen.getByText('This ad is for members')).toBeTruthy();
    expect(within(facts).getByTestId('ad-running-days').textContent).toBe('Running 1 day');
    expect(within(facts).queryByText('Still running')).toBeNull();
    expect(within(facts).getByText('Seen Jan 1, 2026 – Jan 1, 2026')).toBeTruthy();
    expect(within(facts).queryByRole('list', { name: 'Platforms' })).toBeNull();
    expect(within(facts).queryByText('Hook', { selector: 'dt' })).toBeNull();
    expect(within(facts).queryByRole('link')).toBeNull();
  });

  it('shows no facts section for an ad without facts', async () => {
    const ad = makeAd({ facts: makeFacts() });
    serve(ad);
    renderApp(`/ads/${ad.id}`);
    await screen.findByRole('link', { name: 'Lumora' });
    expect(screen.queryByRole('region', { name: 'Ad facts' })).toBeNull();
  });
});
