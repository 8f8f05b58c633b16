// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { makeAd } from '../support/ad-fixtures.ts';
import { fakeSupabase } from '../support/fake-supabase.ts';
import { renderApp, setUpAppTests } from '../support/render-app.tsx';
import { cutText, metadataValues } from '../../../src/hooks/use-document-title.ts';

vi.mock('../../../src/lib/supabase-client.ts', async () => ({ supabase: (await import('../support/fake-supabase.ts')).fakeSupabase.client }));
vi.mock('../../../src/features/boards/components/sidebar-collections.tsx', () => ({ SidebarCollections: () => null }));

const meta = (selector: string) => document.head.querySelector(selector)?.getAttribute('content') ?? null;

describe('page metadata', () => {
  setUpAppTests();

  it('cuts titles to 60 characters and descriptions to 160, on a word where one is near', () => {
    const values = metadataValues({ title: 'A very long title '.repeat(6), description: 'words and more words '.repeat(12) }, 'https://obyect.test/x');
    expect(values.title.length).toBeLessThanOrEqual(60);
    expect(values.title.endsWith('…')).toBe(true);
    expect(values.description!.length).toBeLessThanOrEqual(160);
    expect(values.ogTitle).toBe(values.title);
    expect(values.ogUrl).toBe('https://obyect.test/x');
    expect(cutText('short', 60)).toBe('short');
    expect(cutText('x'.repeat(70), 60)).toHaveLength(60);
  });

  it('gives every page of the app a title, a description and Open Graph tags', async () => {
    for (const [path, title] of [
      ['/terms', 'Terms of Service – Obyect'],
      ['/privacy', 'Privacy Policy – Obyect'],
      ['/no-such-page', 'Page not found – Obyect'],
      ['/library', 'Ad Library – Filters and Discovery'],
    ] as const) {
      const view = renderApp(path);
      await waitFor(() => expect(document.title).toBe(title));
      const description = meta('meta[name="description"]');
      expect(description, path).toBeTruthy();
      expect(description!.length).toBeLessThanOrEqual(160);
      expect(meta('meta[property="og:title"]')).toBe(title);
      expect(meta('meta[property="og:description"]')).toBe(description);
      expect(meta('meta[property="og:site_name"]')).toBe('Obyect');
      expect(meta('meta[property="og:url"]')).toBe(`http://localhost:3000${path}`);
      view.unmount();
    }
  });

  it("names the brand on an ad's page, and gives the list its title back when the ad's modal closes", async () => {
    const ad = makeAd({ brand_name: 'Lumora' });
    fakeSupabase.onRpc('list_ads', () => ({ data: { ads: [ad], next_cursor: null }, error: null }));
    fakeSupabase.onRpc('get_ad', () => ({ data: ad, error: null }));
    const app = renderApp('/library');
    const card = await screen.findByTestId('ad-card');
    fireEvent.click(within(card).getByRole('link', { name: 'Open Lumora ad' }));
    await waitFor(() => expect(document.title).toContain('Lumora'));
    expect(meta('meta[property="og:title"]')).toContain('Lumora');
    expect(meta('meta[name="description"]')).toContain('Lumora');
    await act(async () => {
      await app.router.navigate(-1);
    });
    await waitFor(() => expect(document.title).toBe('Ad Library – Filters and Discovery'));
    expect(meta('meta[property="og:title"]')).toBe('Ad Library – Filters and Discovery');
  });
});

describe('legal pages and not-found', () => {
  setUpAppTests();

  it('/terms covers Google sign-in, Stripe, deletion within 30 days and the 18+ age limit, with the footer', async () => {
    renderApp('/terms');
    const main = await screen.findByRole('main');
    expect(within(main).getByRole('heading', { level: 1, name: 'Terms of Service' })).toBeTruthy();
    const text = main.textContent!;
    expect(text).toMatch(/Google/);
    expect(text).toMatch(/Stripe/);
    expect(text).toMatch(/within 30 days/);
    expect(text).toMatch(/at least 18 years old/);
    expect(text).toContain('€8,95');
    expect(within(main).getByRole('link', { name: 'Privacy Policy' }).getAttribute('href')).toBe('/privacy');
    const footer = within(screen.getByRole('navigation', { name: 'Footer' }));
    expect(footer.getByRole('link', { name: 'Privacy' }).getAttribute('href')).toBe('/privacy');
    expect(footer.getByRole('link', { name: 'Contact Us' }).getAttribute('href')).toMatch(/^mailto:/);
  });

  it('/privacy covers Google sign-in, the payment provider, GDPR rights, 30-day deletion and 18+', async () => {
    renderApp('/privacy');
    const main = await screen.findByRole('main');
    expect(within(main).getByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeTruthy();
    expect(within(main).getByRole('heading', { level: 2, name: /Your rights under the GDPR/ })).toBeTruthy();
    const text = main.textContent!;
    expect(text).toMatch(/Sign in with Google/);
    expect(text).toMatch(/payment provider Stripe/);
    expect(text).toMatch(/within 30 days after the account deletion/);
    expect(text).toMatch(/aged 18 and over/);
    for (const right of ['access', 'corrected', 'erased', 'portable', 'complaint']) expect(text).toContain(right);
  });

  it("shows 'Oops! Page not found' with a link home for any other path", async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const app = renderApp('/nowhere/at/all');
    expect(await screen.findByRole('heading', { level: 1, name: 'Oops! Page not found' })).toBeTruthy();
    fireEvent.click(screen.getByRole('link', { name: 'Return to Home' }));
    await waitFor(() => expect(app.currentUrl()).toBe('/library'));
  });
});
