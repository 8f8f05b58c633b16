// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '../../../src/components/ui/toaster.tsx';
import { AdminAdsSection } from '../../../src/features/admin-ads/components/admin-ads-section.tsx';
import { SAMPLE_THUMBHASH } from '../support/ad-fixtures.ts';
import { fakeSupabase } from '../support/fake-supabase.ts';
import { TestIntersectionObserver } from '../support/render-app.tsx';

vi.mock('../../../src/lib/supabase-client.ts', async () => ({ supabase: (await import('../support/fake-supabase.ts')).fakeSupabase.client }));

const BRANDS = [
  { id: 'b1', name: 'Lumora' },
  { id: 'b2', name: 'Northwind' },
];
const CATEGORIES = [{ id: 'c1', name: 'Skincare' }];
const TYPES = [
  { id: 'y1', name: 'Static' },
  { id: 'y2', name: 'UGC' },
];
const HOOK_1 = 'aaaaaaaa-0000-4000-8000-000000000001';
const HOOK_2 = 'aaaaaaaa-0000-4000-8000-000000000002';
const HOOKS = [
  { id: HOOK_1, name: 'Before and after' },
  { id: HOOK_2, name: 'Social proof' },
];
const TAGS = [
  { id: 't1', name: 'Bestseller' },
  { id: 't2', name: 'Black Friday' },
];

function adminRow(index: number, total: number) {
  return {
    id: `a${index}`,
    brand_id: 'b1',
    brand_name: 'Lumora',
    brand_logo_path: null,
    category_id: 'c1',
    category_name: 'Skincare',
    type_id: null,
    type_name: null,
    tag_ids: index === 1 ? ['t1'] : [],
    tag_names: index === 1 ? ['Bestseller'] : [],
    created_at: `2026-11-${String(10 + (index % 10)).padStart(2, '0')}T10:00:00.000000Z`,
    requires_subscription: true,
    is_black_friday: false,
    is_top_picks: false,
    width: 1080,
    height: 1350,
    thumbhash: SAMPLE_THUMBHASH,
    preview_path: `previews/a${index}.webp`,
    display_480_path: `f${index}/480.webp`,
    display_960_path: `f${index}/960.webp`,
    original_path: `f${index}/original.jpg`,
    total_count: total,
  };
}

/**
 * get_ads_admin answering `total` ads, 50 a page, as the server would page them, and admin_ad_images their links;
 * every tenth ad is in the free sample.
 */
function serveAds(total: number) {
  fakeSupabase.onRpc('get_ads_admin', (args) => {
    const offset = args.p_offset as number;
    const count = Math.max(0, Math.min(50, total - offset));
    return { data: Array.from({ length: count }, (_, i) => adminRow(offset + i + 1, total)), error: null };
  });
  fakeSupabase.onRpc('admin_ad_images', (args) => ({
    data: (args.p_ids as string[]).map((id) => {
      const index = Number(id.replace(/^\D+/, ''));
      return {
        id,
        free_sample: index % 10 === 1,
        display_480_url: `object/sign/ad-images/f${index}/480.webp?token=t${index}`,
        display_960_url: `object/sign/ad-images/f${index}/960.webp?token=t${index}`,
      };
    }),
    error: null,
  }));
  fakeSupabase.onRpc('admin_ad_facts', (args) => ({ data: (args.p_ids as string[]).map((id) => factsRow(id)), error: null }));
}

/** The stored facts of an ad: the first has them all, the others none. */
function factsRow(id: string) {
  const full = id === 'a1';
  return {
    id,
    platforms: full ? ['meta', 'tiktok'] : null,
    placement: null,
    format: full ? 'video' : null,
    first_seen: full ? '2026-10-01' : null,
    last_seen: full ? '2026-10-10' : null,
    still_running: false,
    landing_url: null,
    primary_text: null,
    headline: full ? 'Glow serum' : null,
    call_to_action: null,
    offer: full ? 'discount' : null,
    hook_id: full ? HOOK_1 : null,
    hook_name: full ? 'Before and after' : null,
    language: null,
    country: null,
  };
}

function renderSection() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return render(
    <QueryClientProvider client={queryClient}>
      <AdminAdsSection />
      <Toaster />
    </QueryClientProvider>,
  );
}

/** Brings the table within 100 px of the viewport. */
async function renderNearViewport() {
  const view = renderSection();
  await act(async () => TestIntersectionObserver.intersectAll());
  return view;
}

const lastAdminQuery = () => fakeSupabase.callsOf('get_ads_admin').at(-1)!;
const rows = () => screen.getAllByTestId('admin-ad-row');

describe('ad management table', () => {
  beforeEach(() => {
    fakeSupabase.reset();
    fakeSupabase.onTable('brands', () => ({ data: BRANDS, error: null }));
    fakeSupabase.onTable('categories', () => ({ data: CATEGORIES, error: null }));
    fakeSupabase.onTable('types', () => ({ data: TYPES, error: null }));
    fakeSupabase.onTable('tags', () => ({ data: TAGS, error: null }));
    fakeSupabase.onTable('hooks', () => ({ data: HOOKS, error: null }));
    serveAds(3);
    fakeSupabase.onRpc('admin_update_ads', (args) => ({ data: (args.p_ids as string[]).map((id) => ({ id, ok: true, error: null })), error: null }));
    fakeSupabase.onRpc('admin_delete_ads', (args) => ({ data: (args.p_ids as string[]).map((id) => ({ id, ok: true, error: null })), error: null }));
    TestIntersectionObserver.instances = [];
    globalThis.IntersectionObserver = TestIntersectionObserver as unknown as typeof IntersectionObserver;
  });
  afterEach(() => cleanup());

  it('loads nothing until the table comes within 100 px of the viewport', async () => {
    renderSection();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fakeSupabase.callsOf('get_ads_admin')).toEqual([]);
    expect(TestIntersectionObserver.instances.at(-1)!.options?.rootMargin).toBe('100px 0px 100px 0px');
    await act(async () => TestIntersectionObserver.intersectAll());
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(lastAdminQuery()).toEqual({
      p_limit: 50, p_offset: 0, p_search: null, p_brand: null, p_category: null, p_type: null, p_tag_ids: null, p_date_from: null, p_date_to: null, p_sort: 'newest',
    });
    expect(screen.getByText('Page 1 of 1 • 3')).toBeTruthy();
  });

  it("says 'Admin access required' when the server refuses the caller", async () => {
    fakeSupabase.onRpc('get_ads_admin', () => ({ data: null, error: { message: 'This operation requires admin privileges.', code: '42501', details: 'admin_required' } }));
    await renderNearViewport();
    expect(await screen.findByText('Admin access required')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it("says 'No ads match your filters.' when nothing matches", async () => {
    serveAds(0);
    await renderNearViewport();
    expect(await screen.findByText('No ads match your filters.')).toBeTruthy();
    expect(screen.getByText('Page 1 of 1 • 0')).toBeTruthy();
  });

  it('pages 50 ads at a time with Previous and Next, and goes back to page 1 when a filter changes', async () => {
    serveAds(120);
    await renderNearViewport();
    await screen.findByText('Page 1 of 3 • 120');
    expect(rows()).toHaveLength(50);
    expect((screen.getByRole('button', { name: 'Previous' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('Page 2 of 3 • 120');
    expect(lastAdminQuery().p_offset).toBe(50);
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('Page 3 of 3 • 120');
    await waitFor(() => expect(rows()).toHaveLength(20));
    expect((screen.getByRole('button', { name: 'Next' }) as HTMLButtonElement).disabled).toBe(true);

    fireEvent.change(screen.getByRole('combobox', { name: 'Brand' }), { target: { value: 'b2' } });
    await screen.findByText('Page 1 of 3 • 120');
    expect(lastAdminQuery()).toMatchObject({ p_offset: 0, p_brand: 'b2' });
    expect(fakeSupabase.callsOf('get_ads_admin').filter((args) => args.p_brand === 'b2' && args.p_offset !== 0)).toEqual([]);
  });

  it('searches once typing pauses for 300 ms, from page 1', async () => {
    serveAds(120);
    await renderNearViewport();
    await screen.findByText('Page 1 of 3 • 120');
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('Page 2 of 3 • 120');
    const before = fakeSupabase.callsOf('get_ads_admin').length;
    const search = screen.getByRole('searchbox', { name: 'Search ads' });
    fireEvent.change(search, { target: { value: 'l' } });
    fireEvent.change(search, { target: { value: 'lu' } });
    fireEvent.change(search, { target: { value: 'lum ' } });
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(fakeSupabase.callsOf('get_ads_admin')).toHaveLength(before);
    await waitFor(() => expect(lastAdminQuery()).toMatchObject({ p_search: 'lum', p_offset: 0 }));
    expect(fakeSupabase.callsOf('get_ads_admin').filter((args) => args.p_search !== null)).toHaveLength(1);
  });

  it('filters by category, type, tag chips and dates, and sorts by brand', async () => {
    await renderNearViewport();
    await waitFor(() => expect(rows()).toHaveLength(3));
    fireEvent.change(screen.getByRole('combobox', { name: 'Category' }), { target: { value: 'c1' } });
    fireEvent.change(screen.getByRole('combobox', { name: 'Type' }), { target: { value: 'y2' } });
    const chips = screen.getByRole('group', { name: 'Tags' });
    fireEvent.click(within(chips).getByRole('button', { name: 'Bestseller' }));
    fireEvent.click(within(chips).getByRole('button', { name: 'Black Friday' }));
    fireEvent.click(within(chips).getByRole('button', { name: 'Bestseller' }));
    fireEvent.change(screen.getByLabelText('Date from'), { target: { value: '2026-11-01' } });
    fireEvent.change(screen.getByLabelText('Date to'), { target: { value: '2026-11-20' } });
    fireEvent.change(screen.getByRole('combobox', { name: 'Sort' }), { target: { value: 'brand_desc' } });
    await waitFor(() =>
      expect(lastAdminQuery()).toMatchObject({ p_category: 'c1', p_type: 'y2', p_tag_ids: ['t2'], p_date_from: '2026-11-01', p_date_to: '2026-11-20', p_sort: 'brand_desc', p_offset: 0 }),
    );
    expect(within(chips).getByRole('button', { name: 'Black Friday' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole('combobox', { name: 'Sort' }).textContent).toContain('Brand Z–A');
  });

  it('edits one ad inline: Save sends only what changed, and says so', async () => {
    await renderNearViewport();
    await waitFor(() => expect(rows()).toHaveLength(3));
    fireEvent.click(screen.getAllByRole('button', { name: 'Edit Lumora ad' })[1]!);
    const row = rows()[1]!;
    expect(row.getAttribute('data-editing')).toBe('true');
    expect((within(row).getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(within(row).getByRole('combobox', { name: 'Type of this ad' }), { target: { value: 'y1' } });
    fireEvent.change(within(row).getByRole('combobox', { name: 'Brand of this ad' }), { target: { value: 'b2' } });
    fireEvent.click(within(row).getByRole('button', { name: 'Save' }));
    await screen.findByText('Ad updated');
    expect(screen.getByText('Changes saved successfully.')).toBeTruthy();
    expect(fakeSupabase.callsOf('admin_update_ads')).toEqual([
      { p_ids: ['a2'], p_brand_id: 'b2', p_category_id: null, p_type_mode: 'set', p_type_id: 'y1', p_add_tag_ids: [], p_remove_tag_ids: [] },
    ]);
    await waitFor(() => expect(screen.queryByRole('combobox', { name: 'Type of this ad' })).toBeNull());
  });

  it("shows 'Update failed' with the reason when an inline edit is refused, and keeps the editor open", async () => {
    fakeSupabase.onRpc('admin_update_ads', () => ({ data: null, error: { message: 'Type not found', code: 'PT404', details: 'type_not_found' } }));
    await renderNearViewport();
    await waitFor(() => expect(rows()).toHaveLength(3));
    fireEvent.click(screen.getAllByRole('button', { name: 'Edit Lumora ad' })[0]!);
    fireEvent.change(screen.getByRole('combobox', { name: 'Type of this ad' }), { target: { value: 'y2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Update failed');
    expect(screen.getByText('That type no longer exists. Reload the page to see the latest.')).toBeTruthy();
    expect(screen.queryByText('Type not found')).toBeNull();
    expect(screen.getByRole('combobox', { name: 'Type of this ad' })).toBeTruthy();
  });

  it('bulk-sets the type of the selected ads, then reloads with the selection cleared', async () => {
    await renderNearViewport();
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(screen.queryByRole('button', { name: 'Apply to Selected' })).toBeNull();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select all ads on this page' }));
    const bar = screen.getByRole('region', { name: '3 selected' });
    expect((within(bar).getByRole('button', { name: 'Apply to Selected' }) as HTMLButtonElement).disabled).toBe(true);
    const typeSelect = within(bar).getByRole('combobox', { name: 'Set type' });
    expect([...typeSelect.querySelectorAll('option')].map((option) => option.textContent)).toEqual(['Set type: no change', 'Set type: clear', 'Static', 'UGC']);
    fireEvent.change(typeSelect, { target: { value: 'y2' } });
    const loadsBefore = fakeSupabase.callsOf('get_ads_admin').length;
    fireEvent.click(within(bar).getByRole('button', { name: 'Apply to Selected' }));
    await screen.findByText('Bulk update applied');
    expect(screen.getByText('3 ad(s) updated.')).toBeTruthy();
    expect(fakeSupabase.callsOf('admin_update_ads')).toEqual([
      { p_ids: ['a1', 'a2', 'a3'], p_brand_id: null, p_category_id: null, p_type_mode: 'set', p_type_id: 'y2', p_add_tag_ids: [], p_remove_tag_ids: [] },
    ]);
    await waitFor(() => expect(fakeSupabase.callsOf('get_ads_admin').length).toBeGreaterThan(loadsBefore));
    await waitFor(() => expect(screen.queryByRole('region', { name: /selected/ })).toBeNull());
    expect(screen.getAllByRole('checkbox').every((box) => !(box as HTMLInputElement).checked)).toBe(true);
  });

  it("clears the type of the selected ads with 'clear', and adds and removes tags", async () => {
    await renderNearViewport();
    await waitFor(() => expect(rows()).toHaveLength(3));
    const boxes = screen.getAllByRole('checkbox', { name: /^Select Lumora ad of/ });
    fireEvent.click(boxes[0]!);
    fireEvent.click(boxes[1]!);
    const bar = screen.getByRole('region', { name: '2 selected' });
    fireEvent.change(within(bar).getByRole('combobox', { name: 'Set type' }), { target: { value: '__clear__' } });
    fireEvent.click(within(bar).getByRole('button', { name: 'Add tags' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Add tags' })).getByRole('checkbox', { name: 'Black Friday' }));
    fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape' });
    fireEvent.click(within(bar).getByRole('button', { name: /Remove tags/ }));
    const removeList = await screen.findByRole('dialog', { name: 'Remove tags' });
    expect(within(removeList).queryByRole('checkbox', { name: 'Black Friday' })).toBeNull();
    fireEvent.click(within(removeList).getByRole('checkbox', { name: 'Bestseller' }));
    fireEvent.click(within(bar).getByRole('button', { name: 'Apply to Selected' }));
    await screen.findByText('2 ad(s) updated.');
    expect(fakeSupabase.callsOf('admin_update_ads')).toEqual([
      { p_ids: ['a1', 'a2'], p_brand_id: null, p_category_id: null, p_type_mode: 'clear', p_type_id: null, p_add_tag_ids: ['t2'], p_remove_tag_ids: ['t1'] },
    ]);
  });

  it("deletes the selected ads after 'Confirm Deletion': 'Delete N ad(s)? This cannot be undone.'", async () => {
    await renderNearViewport();
    await waitFor(() => expect(rows()).toHaveLength(3));
    const boxes = screen.getAllByRole('checkbox', { name: /^Select Lumora ad of/ });
    fireEvent.click(boxes[0]!);
    fireEvent.click(boxes[2]!);
    fireEvent.click(screen.getByRole('button', { name: 'Delete Selected' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm Deletion' });
    expect(within(dialog).getByText('Delete 2 ad(s)? This cannot be undone.')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(fakeSupabase.callsOf('admin_delete_ads')).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: 'Delete Selected' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Confirm Deletion' })).getByRole('button', { name: 'Delete' }));
    await screen.findByText('Deleted');
    expect(screen.getByText('2 ad(s) removed.')).toBeTruthy();
    expect(fakeSupabase.callsOf('admin_delete_ads')).toEqual([{ p_ids: ['a1', 'a3'] }]);
    expect(fakeSupabase.storageCalls).toEqual([
      { bucket: 'ad-originals', action: 'remove', paths: ['f1/original.jpg', 'f3/original.jpg'] },
      { bucket: 'ad-images', action: 'remove', paths: ['f1/480.webp', 'f1/960.webp', 'previews/a1.webp', 'f3/480.webp', 'f3/960.webp', 'previews/a3.webp'] },
      // a1 is a video ad: its video, beside its original under the name the upload gives it.
      { bucket: 'ad-videos', action: 'remove', paths: ['f1/video.mp4', 'f1/video.webm'] },
    ]);
  });

  it('removes the stored images only of the ads the server reports deleted', async () => {
    fakeSupabase.onRpc('admin_delete_ads', (args) => ({
      data: (args.p_ids as string[]).map((id) => (id === 'a2' ? { id, ok: false, error: 'not_found' } : { id, ok: true, error: null })),
      error: null,
    }));
    await renderNearViewport();
    await waitFor(() => expect(rows()).toHaveLength(3));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select all ads on this page' }));
    fireEvent.click(screen.getByRole('button', { name: 'Delete Selected' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Confirm Deletion' })).getByRole('button', { name: 'Delete' }));
    await screen.findByText('2 ad(s) removed.');
    expect(fakeSupabase.storageCalls.flatMap((call) => call.paths).filter((path) => path.includes('2'))).toEqual([]);
    // Four images of each deleted ad, and the video ad a1's video (under its two possible names).
    expect(fakeSupabase.storageCalls.flatMap((call) => call.paths)).toHaveLength(10);
  });

  it('deletes one ad from its row after the same confirmation', async () => {
    fakeSupabase.onRpc('admin_delete_ads', () => ({ data: null, error: { message: 'This operation requires admin privileges.', code: '42501', details: 'admin_required' } }));
    await renderNearViewport();
    await waitFor(() => expect(rows()).toHaveLength(3));
    fireEvent.click(screen.getAllByRole('button', { name: 'Delete Lumora ad' })[2]!);
    const dialog = await screen.findByRole('dialog', { name: 'Confirm Deletion' });
    expect(within(dialog).getByText('Delete 1 ad(s)? This cannot be undone.')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await screen.findByText('Delete failed');
    expect(fakeSupabase.callsOf('admin_delete_ads')).toEqual([{ p_ids: ['a3'] }]);
    expect(fakeSupabase.storageCalls).toEqual([]);
  });

  it("opens the large variant with 'View full image'", async () => {
    await renderNearViewport();
    await waitFor(() => expect(rows()).toHaveLength(3));
    fireEvent.click(within(rows()[0]!).getByRole('button', { name: 'View full image' }));
    const dialog = await screen.findByRole('dialog', { name: 'Lumora ad' });
    expect(within(dialog).getByRole('img').getAttribute('src')).toBe('http://localhost:3000/storage/v1/object/sign/ad-images/f1/960.webp?token=t1');
  });

  it("says 'Failed to load metadata' when the brands, categories, types or tags cannot be read", async () => {
    fakeSupabase.onTable('types', () => ({ data: null, error: { message: 'network down' } }));
    await renderNearViewport();
    expect(await screen.findByText('Failed to load metadata')).toBeTruthy();
    await waitFor(() => expect(rows()).toHaveLength(3));
  });

  it('shows the columns of the spec', async () => {
    await renderNearViewport();
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(screen.getAllByRole('columnheader').map((header) => header.textContent)).toEqual(['', 'Preview', 'Brand', 'Category', 'Type', 'Tags', 'Platforms', 'Format', 'Offer', 'Hook', 'Running', 'Created', 'Actions']);
    expect(within(rows()[0]!).getByText('Bestseller')).toBeTruthy();
  });

  it('marks the ads in the free sample, and shows each thumbnail through its signed link', async () => {
    await renderNearViewport();
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(rows().map((row) => within(row).queryByText('Free sample') !== null)).toEqual([true, false, false]);
    expect(fakeSupabase.callsOf('admin_ad_images').at(-1)).toEqual({ p_ids: ['a1', 'a2', 'a3'] });
    expect(rows()[1]!.querySelector('img')!.getAttribute('src')).toBe('http://localhost:3000/storage/v1/object/sign/ad-images/f2/480.webp?token=t2');
  });
  it('shows the main facts of each row', async () => {
    await renderNearViewport();
    await waitFor(() => expect(rows()).toHaveLength(3));
    const cells = within(rows()[0]!).getAllByRole('cell').map((cell) => cell.textContent);
    expect(cells.slice(6, 11)).toEqual(['Meta, TikTok', 'Video', 'Discount', 'Before and after', '10 d']);
    expect(within(rows()[1]!).getAllByRole('cell').slice(6, 11).map((cell) => cell.textContent)).toEqual(['—', '—', '—', '—', '—']);
  });

  it("edits an ad's facts under its row: only the changed facts are sent, Escape cancels, a broken rule is named", async () => {
    await renderNearViewport();
    await waitFor(() => expect(rows()).toHaveLength(3));
    const buttons = screen.getAllByRole('button', { name: 'Edit the facts of Lumora ad' });
    fireEvent.click(buttons[0]!);
    let editor = await screen.findByRole('form', { name: 'Facts of Lumora ad' });
    await waitFor(() => expect(document.activeElement?.getAttribute('type')).toBe('checkbox'));
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Facts of Lumora ad' })).toBeNull());
    expect(fakeSupabase.callsOf('admin_update_ads')).toEqual([]);

    fireEvent.click(screen.getAllByRole('button', { name: 'Edit the facts of Lumora ad' })[0]!);
    editor = await screen.findByRole('form', { name: 'Facts of Lumora ad' });
    fireEvent.change(within(editor).getByLabelText('Last seen'), { target: { value: '2026-09-01' } });
    fireEvent.click(within(editor).getByRole('button', { name: 'Save' }));
    expect(await within(editor).findByText('Last seen must not be before first seen.')).toBeTruthy();
    expect(fakeSupabase.callsOf('admin_update_ads')).toEqual([]);

    fireEvent.change(within(editor).getByLabelText('Last seen'), { target: { value: '2026-10-20' } });
    fireEvent.change(within(editor).getByLabelText('Offer'), { target: { value: '' } });
    fireEvent.click(within(editor).getByRole('checkbox', { name: 'Instagram' }));
    fireEvent.change(within(editor).getByLabelText('Hook'), { target: { value: 'Social proof' } });
    fireEvent.submit(editor);
    await screen.findByText('Ad updated');
    expect(fakeSupabase.callsOf('admin_update_ads')).toEqual([
      {
        p_ids: ['a1'], p_brand_id: null, p_category_id: null, p_type_mode: 'no_change', p_type_id: null, p_add_tag_ids: [], p_remove_tag_ids: [],
        p_facts: { platforms: ['meta', 'tiktok', 'instagram'], last_seen: '2026-10-20', offer: null, hook_id: HOOK_2 },
      },
    ]);
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Facts of Lumora ad' })).toBeNull());
  });

  it("names the rule the server refused a fact by", async () => {
    fakeSupabase.onRpc('admin_update_ads', () => ({
      data: null,
      error: { message: 'Seen dates cannot be in the future', code: 'P0001', details: 'invalid_facts', hint: 'ads_seen_not_in_future' },
    }));
    await renderNearViewport();
    await waitFor(() => expect(rows()).toHaveLength(3));
    fireEvent.click(screen.getAllByRole('button', { name: 'Edit the facts of Lumora ad' })[0]!);
    const editor = await screen.findByRole('form', { name: 'Facts of Lumora ad' });
    fireEvent.change(within(editor).getByLabelText('Headline'), { target: { value: 'New headline' } });
    fireEvent.click(within(editor).getByRole('button', { name: 'Save' }));
    await screen.findByText('Update failed');
    expect(await screen.findByText('Seen dates cannot be in the future.')).toBeTruthy();
    expect(screen.getByRole('form', { name: 'Facts of Lumora ad' })).toBeTruthy();
  });

  it('sets facts on the selected ads from the bulk bar, sending only the facts touched', async () => {
    await renderNearViewport();
    await waitFor(() => expect(rows()).toHaveLength(3));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select all ads on this page' }));
    const bar = screen.getByRole('region', { name: '3 selected' });
    fireEvent.click(within(bar).getByRole('button', { name: 'Set facts' }));
    const group = within(bar).getByRole('group', { name: 'Facts of the selected ads' });
    fireEvent.change(within(group).getByRole('combobox', { name: 'Offer' }), { target: { value: 'bundle' } });
    fireEvent.change(within(group).getByRole('combobox', { name: 'Hook' }), { target: { value: '__clear__' } });
    fireEvent.change(within(group).getByRole('combobox', { name: 'Platforms' }), { target: { value: '__set__' } });
    expect((within(bar).getByRole('button', { name: 'Apply to Selected' }) as HTMLButtonElement).disabled).toBe(true);
    expect(within(bar).getByRole('alert').textContent).toBe("Tick at least one platform, or choose 'clear'.");
    fireEvent.click(within(group).getByRole('checkbox', { name: 'YouTube' }));
    expect(within(bar).queryByRole('alert')).toBeNull();
    fireEvent.change(within(group).getByRole('combobox', { name: 'Offer' }), { target: { value: '__no_change__' } });
    fireEvent.change(within(group).getByRole('combobox', { name: 'Format' }), { target: { value: 'carousel' } });
    fireEvent.click(within(bar).getByRole('button', { name: 'Apply to Selected' }));
    await screen.findByText('3 ad(s) updated.');
    expect(fakeSupabase.callsOf('admin_update_ads')).toEqual([
      {
        p_ids: ['a1', 'a2', 'a3'], p_brand_id: null, p_category_id: null, p_type_mode: 'no_change', p_type_id: null, p_add_tag_ids: [], p_remove_tag_ids: [],
        p_facts: { hook_id: null, platforms: ['youtube'], format: 'carousel' },
      },
    ]);
  });

  it('previews an imported file: the changes per ad, the rows that change nothing counted, and applies them in one call', async () => {
    const ID = '11111111-1111-4111-8111-111111111111';
    const SAME = '22222222-2222-4222-8222-222222222222';
    fakeSupabase.onRpc('admin_ad_facts', (args) => ({ data: (args.p_ids as string[]).map((id) => ({ ...factsRow('a1'), id })), error: null }));
    fakeSupabase.onRpc('admin_import_ad_facts', () => ({ data: { updated: 1, errors: [] }, error: null }));
    await renderNearViewport();
    await waitFor(() => expect(rows()).toHaveLength(3));
    const csv = '\uFEFFid,brand,offer,platforms\r\n' + `${ID},Lumora,bundle,meta|tiktok\r\n${SAME},Lumora,discount,meta|tiktok\r\n`;
    fireEvent.change(screen.getByTestId('facts-csv-input'), { target: { files: [new File([csv], 'facts.csv', { type: 'text/csv' })] } });
    const dialog = await screen.findByRole('dialog', { name: 'Import ad facts' });
    expect(within(dialog).getByText('1 ad(s) will change. 1 row(s) change nothing.')).toBeTruthy();
    const changes = within(dialog).getByTestId('import-changes');
    expect(within(changes).getAllByRole('listitem')).toHaveLength(1);
    expect(changes.textContent).toContain('Offer');
    expect(changes.textContent).toContain('Discount'.toLowerCase());
    expect(changes.textContent).toContain('bundle');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Apply changes' }));
    await screen.findByText('Facts imported');
    expect(fakeSupabase.callsOf('admin_import_ad_facts')).toEqual([{ p_rows: [{ id: ID, facts: { offer: 'bundle' } }] }]);
  });

  it('lists every refused row with its number and offers no Apply', async () => {
    const ID = '11111111-1111-4111-8111-111111111111';
    fakeSupabase.onRpc('admin_ad_facts', (args) => ({ data: (args.p_ids as string[]).filter((id) => id === ID).map((id) => ({ ...factsRow('a1'), id })), error: null }));
    await renderNearViewport();
    await waitFor(() => expect(rows()).toHaveLength(3));
    const csv = 'id,platforms,last_seen\r\n' + `${ID},meta|myspace,2026-09-01\r\n33333333-3333-4333-8333-333333333333,meta,\r\n`;
    fireEvent.change(screen.getByTestId('facts-csv-input'), { target: { files: [new File([csv], 'facts.csv', { type: 'text/csv' })] } });
    const dialog = await screen.findByRole('dialog', { name: 'Import ad facts' });
    expect(within(within(dialog).getByTestId('import-errors')).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Row 2, Platforms: Platforms must be some of meta, instagram, tiktok, youtube, pinterest, snapchat and google, separated by | and each named once.',
      'Row 2, Last seen: Last seen must not be before first seen.',
      'Row 3: No ad has this id. It may have been deleted.',
    ]);
    expect(within(dialog).queryByRole('button', { name: 'Apply changes' })).toBeNull();
    expect(fakeSupabase.callsOf('admin_import_ad_facts')).toEqual([]);
  });

  it('refuses a file over 2 MB or with an unknown column before any preview', async () => {
    await renderNearViewport();
    await waitFor(() => expect(rows()).toHaveLength(3));
    fireEvent.change(screen.getByTestId('facts-csv-input'), { target: { files: [new File(['id,colour\r\nx,red\r\n'], 'facts.csv')] } });
    expect(await screen.findByText('The file has a column we do not know, "colour". Use the columns of an exported file.')).toBeTruthy();
    fireEvent.change(screen.getByTestId('facts-csv-input'), { target: { files: [new File(['x'.repeat(2 * 1024 * 1024 + 1)], 'big.csv')] } });
    expect(await screen.findByText('The file is larger than 2 MB. Split it into smaller files.')).toBeTruthy();
    expect(screen.queryByRole('dialog', { name: 'Import ad facts' })).toBeNull();
  });
});
