// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '../../../src/components/ui/toaster.tsx';
import { AdminCatalogSection } from '../../../src/features/admin-catalog/components/admin-catalog-section.tsx';
import { fakeSupabase, type TableQuery } from '../support/fake-supabase.ts';

vi.mock('../../../src/lib/supabase-client.ts', async () => ({ supabase: (await import('../support/fake-supabase.ts')).fakeSupabase.client }));

const BRANDS = [
  { id: 'b1', name: 'Lumora', logo_path: null },
  { id: 'b2', name: 'Northwind', logo_path: 'b2/1700000000000-northwind.png' },
];
const CATEGORIES = [{ id: 'c1', name: 'Skincare' }];
const TAGS = [
  { id: 't1', name: 'Bestseller', system_key: null },
  { id: 't2', name: 'Black Friday', system_key: 'black_friday' },
];
const TYPES = [{ id: 'y1', name: 'Static' }];
const HOOKS = [{ id: 'h1', name: 'Social proof' }];

/** Reads answer the catalogue; writes answer the row they touched, unless `refuse` says otherwise. */
function serveCatalog(refuse: (query: TableQuery) => { message: string; details?: string; code?: string } | null = () => null) {
  const rows: Record<string, unknown[]> = { brands: BRANDS, categories: CATEGORIES, tags: TAGS, types: TYPES, hooks: HOOKS, page_banners: [{ page: 'black-friday', image_path: 'black-friday/1-old.jpg' }] };
  for (const table of Object.keys(rows)) {
    fakeSupabase.onTable(table, (query) => {
      if (query.action === 'select' && query.columns !== 'id' && query.columns !== 'page') return { data: rows[table], error: null };
      const error = refuse(query);
      if (error) return { data: null, error };
      return { data: [{ id: 'x', page: 'x' }], error: null };
    });
  }
}

function renderSection() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return render(
    <QueryClientProvider client={queryClient}>
      <AdminCatalogSection />
      <Toaster />
    </QueryClientProvider>,
  );
}

const list = (name: string) => screen.getByRole('region', { name });
const png = (name = 'Logo Final!.png') => new File([new Uint8Array([137, 80, 78, 71])], name, { type: 'image/png' });

describe('admin catalogue section', () => {
  beforeEach(() => {
    fakeSupabase.reset();
    serveCatalog();
  });
  afterEach(() => cleanup());

  it('lists brands, categories, tags, types and hooks, each in a list that scrolls at 320 px', async () => {
    renderSection();
    await screen.findByRole('button', { name: 'Edit Lumora' });
    for (const [title, names] of [['Brands', ['Lumora', 'Northwind']], ['Categories', ['Skincare']], ['Tags', ['Bestseller', 'Black Friday']], ['Types', ['Static']], ['Hooks', ['Social proof']]] as const) {
      const region = list(title);
      for (const name of names) expect(within(region).getByRole('button', { name: `Edit ${name}` })).toBeTruthy();
    }
    for (const kind of ['brands', 'categories', 'tags', 'types', 'hooks']) {
      expect(screen.getByTestId(`manage-${kind}-scroll`).className).toMatch(/\bmax-h-80 overflow-y-auto\b/);
    }
  });

  it('adds a name only when it has more than one character once trimmed, and says so', async () => {
    renderSection();
    const region = list('Categories');
    const input = within(region).getByRole('textbox', { name: 'New category' });
    const add = within(region).getByRole('button', { name: 'Add' }) as HTMLButtonElement;
    fireEvent.change(input, { target: { value: '  a  ' } });
    expect(add.disabled).toBe(true);
    fireEvent.change(input, { target: { value: '  Pet   food ' } });
    expect(add.disabled).toBe(false);
    fireEvent.click(add);
    await screen.findByText('Category added');
    expect(fakeSupabase.writesTo('categories')).toMatchObject([{ action: 'insert', payload: { name: 'Pet food' } }]);
    await waitFor(() => expect((input as HTMLInputElement).value).toBe(''));
  });

  it('adds a hook to the curated list the ads are tagged with', async () => {
    renderSection();
    const region = list('Hooks');
    fireEvent.change(within(region).getByRole('textbox', { name: 'New hook' }), { target: { value: ' Unboxing ' } });
    fireEvent.click(within(region).getByRole('button', { name: 'Add' }));
    await screen.findByText('Hook added');
    expect(fakeSupabase.writesTo('hooks')).toMatchObject([{ action: 'insert', payload: { name: 'Unboxing' } }]);
  });

  it("says in our words why an add was refused, never in the server's", async () => {
    serveCatalog(() => ({ message: 'duplicate key value violates unique constraint "tags_name_unique"', details: 'Key already exists.', code: '23505' }));
    renderSection();
    const region = list('Tags');
    fireEvent.change(within(region).getByRole('textbox', { name: 'New tag' }), { target: { value: 'bestseller' } });
    fireEvent.click(within(region).getByRole('button', { name: 'Add' }));
    await screen.findByText('Could not add tag');
    expect(screen.getByText('That name is already taken. Choose another one.')).toBeTruthy();
    expect(document.body.textContent).not.toMatch(/tags_name_unique|duplicate key|Key already exists/);
  });

  it('renames in place with Edit and Save, and Cancel leaves the name alone', async () => {
    renderSection();
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Lumora' }));
    const input = screen.getByRole('textbox', { name: 'New name for Lumora' });
    fireEvent.change(input, { target: { value: 'Lumora Labs' } });
    fireEvent.click(within(list('Brands')).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('textbox', { name: 'New name for Lumora' })).toBeNull();
    expect(fakeSupabase.writesTo('brands')).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: 'Edit Lumora' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'New name for Lumora' }), { target: { value: ' Lumora Labs ' } });
    fireEvent.click(within(list('Brands')).getByRole('button', { name: 'Save' }));
    await screen.findByText('Brand updated');
    expect(screen.getByText('Name changed successfully.')).toBeTruthy();
    expect(fakeSupabase.writesTo('brands')).toMatchObject([{ action: 'update', payload: { name: 'Lumora Labs' }, filters: [['id', 'eq', 'b1']] }]);
  });

  it('refuses to save an empty name', async () => {
    renderSection();
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Static' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'New name for Static' }), { target: { value: '   ' } });
    expect((within(list('Types')).getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('deletes only after the confirmation "Delete "{name}"? This cannot be undone."', async () => {
    renderSection();
    fireEvent.click(await screen.findByRole('button', { name: 'Delete Skincare' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm Deletion' });
    expect(within(dialog).getByText('Delete "Skincare"? This cannot be undone.')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(fakeSupabase.writesTo('categories')).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: 'Delete Skincare' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await screen.findByText('Category deleted');
    expect(fakeSupabase.writesTo('categories')).toMatchObject([{ action: 'delete', filters: [['id', 'eq', 'c1']] }]);
  });

  it('tells the admin why a brand still in use cannot be deleted', async () => {
    serveCatalog((query) => (query.action === 'delete' ? { message: '"Lumora" is still used by 3 ad(s); move or delete them first', details: 'brand_in_use' } : null));
    renderSection();
    fireEvent.click(await screen.findByRole('button', { name: 'Delete Lumora' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await screen.findByText('Delete failed');
    expect(screen.getByText('This brand is still used by some ads. Give them another brand or delete them first.')).toBeTruthy();
  });

  it('offers no delete for the tags that drive a themed board', async () => {
    renderSection();
    await screen.findByRole('button', { name: 'Edit Black Friday' });
    expect(screen.queryByRole('button', { name: 'Delete Black Friday' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Delete Bestseller' })).toBeTruthy();
  });

  it('uploads a logo under the brand with a sanitised, timestamped name, then points the brand at it', async () => {
    renderSection();
    fireEvent.click(await screen.findByRole('button', { name: 'Upload logo for Lumora' }));
    fireEvent.change(screen.getByTestId('brand-logo-input'), { target: { files: [png()] } });
    await screen.findByText('Logo uploaded');
    expect(fakeSupabase.storageCalls).toHaveLength(1);
    const [upload] = fakeSupabase.storageCalls;
    expect(upload).toMatchObject({ bucket: 'brand-logos', action: 'upload', options: { upsert: false, contentType: 'image/png' } });
    expect(upload!.paths[0]).toMatch(/^b1\/\d{13}-Logo-Final\.png$/);
    expect(fakeSupabase.writesTo('brands')).toMatchObject([{ action: 'update', payload: { logo_path: upload!.paths[0] }, filters: [['id', 'eq', 'b1']] }]);
  });

  it('removes the uploaded object again when the brand cannot be pointed at it', async () => {
    serveCatalog((query) => (query.action === 'update' ? { message: 'new row violates row-level security policy', details: null as unknown as string } : null));
    renderSection();
    fireEvent.click(await screen.findByRole('button', { name: 'Upload logo for Lumora' }));
    fireEvent.change(screen.getByTestId('brand-logo-input'), { target: { files: [png()] } });
    await screen.findByText('Upload failed');
    const [upload, removal] = fakeSupabase.storageCalls;
    expect(removal).toEqual({ bucket: 'brand-logos', action: 'remove', paths: [upload!.paths[0]] });
  });

  it('refuses a file that is not a PNG, JPEG or WebP image without uploading', async () => {
    renderSection();
    fireEvent.click(await screen.findByRole('button', { name: 'Upload logo for Lumora' }));
    fireEvent.change(screen.getByTestId('brand-logo-input'), { target: { files: [new File(['<svg/>'], 'logo.svg', { type: 'image/svg+xml' })] } });
    await screen.findByText('Upload failed');
    expect(fakeSupabase.storageCalls).toEqual([]);
  });

  it('replaces a logo, and removes one after the confirmation "Remove logo for "{name}"?"', async () => {
    renderSection();
    expect(await screen.findByRole('button', { name: 'Replace logo for Northwind' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Remove logo for Lumora' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Remove logo for Northwind' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove logo' });
    expect(within(dialog).getByText('Remove logo for "Northwind"?')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await screen.findByText('Logo removed');
    expect(fakeSupabase.writesTo('brands')).toMatchObject([{ action: 'update', payload: { logo_path: null }, filters: [['id', 'eq', 'b2']] }]);
    expect(fakeSupabase.storageCalls).toEqual([{ bucket: 'brand-logos', action: 'remove', paths: ['b2/1700000000000-northwind.png'] }]);
  });

  it('removes the replaced logo object once the brand points at the new one', async () => {
    renderSection();
    fireEvent.click(await screen.findByRole('button', { name: 'Replace logo for Northwind' }));
    fireEvent.change(screen.getByTestId('brand-logo-input'), { target: { files: [new File([new Uint8Array([255, 216, 255])], 'new.jpeg', { type: 'image/jpeg' })] } });
    await screen.findByText('Logo uploaded');
    const [upload, removal] = fakeSupabase.storageCalls;
    expect(upload!.paths[0]).toMatch(/^b2\/\d{13}-new\.jpg$/);
    expect(fakeSupabase.writesTo('brands')).toMatchObject([{ action: 'update', payload: { logo_path: upload!.paths[0] } }]);
    expect(removal).toEqual({ bucket: 'brand-logos', action: 'remove', paths: ['b2/1700000000000-northwind.png'] });
  });

  it('sets the banners of library (a new row) and Black Friday (a replaced one), and removes one', async () => {
    renderSection();
    fireEvent.click(await screen.findByRole('button', { name: 'Upload banner for Library' }));
    fireEvent.change(screen.getByTestId('banner-input'), { target: { files: [png('hero.png')] } });
    await screen.findByText('Banner uploaded');
    expect(fakeSupabase.storageCalls[0]).toMatchObject({ bucket: 'banners', action: 'upload' });
    expect(fakeSupabase.storageCalls[0]!.paths[0]).toMatch(/^library\/\d{13}-hero\.png$/);
    expect(fakeSupabase.writesTo('page_banners')[0]).toMatchObject({ action: 'insert', payload: { page: 'library', image_path: fakeSupabase.storageCalls[0]!.paths[0] } });

    await waitFor(() => expect(screen.getByRole('img', { name: 'Banner for Black Friday' })).toBeTruthy());
    fireEvent.click(screen.getByRole('button', { name: 'Replace banner for Black Friday' }));
    fireEvent.change(screen.getByTestId('banner-input'), { target: { files: [png('bf.png')] } });
    await waitFor(() => expect(fakeSupabase.writesTo('page_banners')).toHaveLength(2));
    expect(fakeSupabase.writesTo('page_banners')[1]).toMatchObject({ action: 'update', filters: [['page', 'eq', 'black-friday']] });
    await waitFor(() => expect(fakeSupabase.storageCalls.at(-1)).toEqual({ bucket: 'banners', action: 'remove', paths: ['black-friday/1-old.jpg'] }));

    fireEvent.click(screen.getByRole('button', { name: 'Remove banner for Black Friday' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Remove' }));
    await screen.findByText('Banner removed');
    expect(fakeSupabase.writesTo('page_banners')[2]).toMatchObject({ action: 'delete', filters: [['page', 'eq', 'black-friday']] });
  });
});
