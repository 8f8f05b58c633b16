// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '../../../src/components/ui/toaster.tsx';
import { AdminUploadSection } from '../../../src/features/admin-upload/components/admin-upload-section.tsx';
import { FakeUploadServices, imageFile, videoFile } from './fake-upload-services.ts';

vi.mock('../../../src/lib/supabase-client.ts', async () => ({ supabase: (await import('../support/fake-supabase.ts')).fakeSupabase.client }));

let services: FakeUploadServices;
/** The machine is shared: waits are generous, never a timing assertion. */
const SLOW = { timeout: 10_000 };

function renderSection() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return render(
    <QueryClientProvider client={queryClient}>
      <AdminUploadSection services={services} />
      <Toaster />
    </QueryClientProvider>,
  );
}

const fileInput = () => document.querySelector<HTMLInputElement>('input[type="file"]')!;
const chooseFiles = (files: File[]) => fireEvent.change(fileInput(), { target: { files } });
const rows = () => screen.queryAllByTestId('upload-item');
const statuses = () => rows().map((row) => row.getAttribute('data-status'));
const uploadAll = () => screen.getByRole('button', { name: 'Upload all' });
/** What the upload did, without the checks each file gets as it joins the queue (fingerprint, near-duplicates). */
const uploadSteps = () => services.log.filter((line) => !/^(fingerprint|duplicates) /.test(line));
const pick = (name: string, value: string) => fireEvent.change(screen.getByRole('combobox', { name }), { target: { value } });

beforeEach(() => {
  services = new FakeUploadServices();
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('AdminUploadSection', () => {
  it('takes dropped or chosen images with sanitised names, size in KB and status pending, and names each file it refused with why', async () => {
    renderSection();
    expect(screen.getByText('up to 100 files')).toBeTruthy();
    expect(screen.getByText('Drag and drop images or videos here, or click to choose')).toBeTruthy();
    chooseFiles([imageFile('Summer sale (1).jpg', 'image/jpeg', 3 * 1024), new File(['hello'], 'notes.txt', { type: 'text/plain' })]);
    fireEvent.drop(screen.getByTestId('upload-dropzone'), { dataTransfer: { files: [imageFile('b.png', 'image/png', 10 * 1024), new File(['x'], 'a.pdf', { type: 'application/pdf' })] } });
    expect(rows()).toHaveLength(2);
    expect(screen.getByText('Summer_sale__1_.jpg')).toBeTruthy();
    expect(screen.getByText('3 KB')).toBeTruthy();
    expect(screen.getByText('10 KB')).toBeTruthy();
    expect(statuses()).toEqual(['pending', 'pending']);
    expect(screen.getByText('Files (2)')).toBeTruthy();
    // The last drop's refusals: named, with why, until dismissed; no row for them.
    const notice = screen.getByTestId('upload-refused');
    expect(notice.getAttribute('role')).toBe('alert');
    expect(within(notice).getByText('1 file was not added')).toBeTruthy();
    expect(within(notice).getByRole('listitem').textContent).toBe('a.pdf: not an image or a video');
    expect(notice.textContent).toContain('Ads are made from JPEG, PNG, WebP, GIF or AVIF images of up to 20 MB each, and from MP4 or WebM videos of up to 50 MB.');
    expect(within(screen.getByRole('list', { name: 'Files (2)' })).queryByText('notes.txt')).toBeNull();
    fireEvent.click(within(notice).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByTestId('upload-refused')).toBeNull();
  });

  it('enables Upload all only with a non-empty queue and a brand and category on every item', async () => {
    renderSection();
    await screen.findByRole('option', { name: 'Lumora' }, SLOW);
    expect((uploadAll() as HTMLButtonElement).disabled).toBe(true);
    chooseFiles([imageFile('a.jpg'), imageFile('b.jpg')]);
    expect((uploadAll() as HTMLButtonElement).disabled).toBe(true);
    pick('Brand for a.jpg', 'b1');
    pick('Category for a.jpg', 'c1');
    pick('Brand for b.jpg', 'b2');
    expect((uploadAll() as HTMLButtonElement).disabled).toBe(true);
    pick('Category for b.jpg', 'c1');
    expect((uploadAll() as HTMLButtonElement).disabled).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Remove b.jpg' }));
    expect(rows()).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Remove a.jpg' }));
    expect((uploadAll() as HTMLButtonElement).disabled).toBe(true);
  });

  it('gives new files the defaults and applies changed defaults to all items', async () => {
    renderSection();
    await screen.findByRole('option', { name: 'Northwind' }, SLOW);
    pick('Brand', 'b2');
    pick('Category', 'c1');
    fireEvent.click(screen.getByRole('button', { name: 'Bestseller' }));
    chooseFiles([imageFile('a.jpg')]);
    expect((screen.getByRole('combobox', { name: 'Brand for a.jpg' }) as HTMLSelectElement).value).toBe('b2');
    pick('Brand', 'b1');
    chooseFiles([imageFile('b.jpg')]);
    expect((screen.getByRole('combobox', { name: 'Brand for a.jpg' }) as HTMLSelectElement).value).toBe('b2');
    fireEvent.click(screen.getByRole('button', { name: 'UGC' }));
    fireEvent.click(screen.getByRole('button', { name: 'Apply to all items' }));
    expect((screen.getByRole('combobox', { name: 'Brand for a.jpg' }) as HTMLSelectElement).value).toBe('b1');
    fireEvent.click(uploadAll());
    await screen.findByText('Processed all files.', {}, SLOW);
    expect(services.ads.map((ad) => ad.brand_id)).toEqual(['b1', 'b1']);
    expect(services.tagLinks.map((link) => link.tagId).sort()).toEqual(['t1', 't1', 't2', 't2']);
  });

  it('adds a brand, category and tag inline (trimmed name longer than one character) and makes them the defaults', async () => {
    renderSection();
    await screen.findByRole('option', { name: 'Lumora' }, SLOW);
    const addBrand = screen.getByRole('button', { name: 'Add brand' }) as HTMLButtonElement;
    fireEvent.change(screen.getByPlaceholderText('New brand'), { target: { value: '  a  ' } });
    expect(addBrand.disabled).toBe(true);
    fireEvent.change(screen.getByPlaceholderText('New brand'), { target: { value: '  Aurora  ' } });
    expect(addBrand.disabled).toBe(false);
    fireEvent.click(addBrand);
    await screen.findByText('Brand added', {}, SLOW);
    expect(services.log).toContain('add brands Aurora');
    await waitFor(() => expect((screen.getByRole('combobox', { name: 'Brand' }) as HTMLSelectElement).value).toBe('brands-3'), SLOW);
    expect((screen.getByPlaceholderText('New brand') as HTMLInputElement).value).toBe('');

    fireEvent.change(screen.getByPlaceholderText('New tag'), { target: { value: 'Launch' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add tag' }));
    expect(await screen.findByRole('button', { name: 'Launch', pressed: true }, SLOW)).toBeTruthy();

    services.failWhen = (step) => (step === 'add' ? 'duplicate key value violates unique constraint' : null);
    fireEvent.change(screen.getByPlaceholderText('New category'), { target: { value: 'Skincare' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add category' }));
    expect(await screen.findByText('Could not add category', {}, SLOW)).toBeTruthy();
    expect(screen.getByText('That name is already taken. Choose another one.')).toBeTruthy();
    expect(document.body.textContent).not.toContain('duplicate key');
  });

  it('uploads one file after another: pending, uploading, then done or error, and a failure does not stop the rest', async () => {
    let open!: () => void;
    services.gate = new Promise((resolve) => (open = resolve));
    services.failWhen = (step, subject) => (step === 'insert' && subject === 'b.jpg' ? 'Ad record refused' : null);
    renderSection();
    await screen.findByRole('option', { name: 'Lumora' }, SLOW);
    pick('Brand', 'b1');
    pick('Category', 'c1');
    chooseFiles([imageFile('a.jpg'), imageFile('b.jpg'), imageFile('c.jpg')]);
    fireEvent.click(uploadAll());
    await waitFor(() => expect(statuses()).toEqual(['uploading', 'pending', 'pending']), SLOW);
    expect((uploadAll() as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Remove a.jpg' }) as HTMLButtonElement).disabled).toBe(true);
    await act(async () => open());
    await screen.findByText('Processed all files.', {}, SLOW);
    expect(screen.getByText('Upload finished')).toBeTruthy();
    expect(statuses()).toEqual(['done', 'error', 'done']);
    expect(within(rows()[1]!).getByRole('alert').textContent).toBe('Ad record insert failed');
    // One file after another: each file's steps end before the next file's begin.
    expect(uploadSteps()).toEqual(
      ['a.jpg', 'b.jpg', 'c.jpg'].flatMap((name) => [
        `variants ${name}`,
        `text ${name}`,
        `put ad-images ${name}`,
        `put ad-images ${name}`,
        `put ad-images ${name}`,
        `put ad-originals ${name}`,
        `insert ${name}`,
        ...(name === 'b.jpg' ? ['remove ad-originals 1', 'remove ad-images 3'] : [`tags ${name} 0`]),
      ]),
    );
    expect(services.ads).toHaveLength(2);
    expect(services.orphans()).toEqual([]);
    // Done items stay done; Upload all retries what failed.
    services.failWhen = () => null;
    fireEvent.click(uploadAll());
    await waitFor(() => expect(statuses()).toEqual(['done', 'done', 'done']), SLOW);
    expect(services.ads).toHaveLength(3);
    expect(services.log.filter((line) => line === 'variants a.jpg')).toHaveLength(1);
    expect((uploadAll() as HTMLButtonElement).disabled).toBe(true);
  });

  it('uploads every file with the batch facts, each file’s own over them, after checking them all; then shows the text read', async () => {
    renderSection();
    await screen.findByRole('option', { name: 'Lumora' }, SLOW);
    pick('Brand', 'b1');
    pick('Category', 'c1');
    const batch = within(screen.getByRole('group', { name: 'Facts for all files' }));
    fireEvent.click(batch.getByRole('button', { name: 'Instagram' }));
    fireEvent.change(batch.getByLabelText('Offer'), { target: { value: 'free_shipping' } });
    fireEvent.change(batch.getByLabelText('Hook'), { target: { value: '7c3f5d8e-1a2b-4c3d-9e8f-0a1b2c3d4e5f' } });
    fireEvent.change(batch.getByLabelText('First seen'), { target: { value: '2026-05-01' } });
    fireEvent.click(batch.getByLabelText('Still running'));
    fireEvent.change(batch.getByLabelText('Country'), { target: { value: 'fr' } });
    chooseFiles([imageFile('a.jpg'), imageFile('b.jpg')]);

    const own = within(screen.getByRole('group', { name: 'Facts of b.jpg' }));
    fireEvent.change(own.getByLabelText('Headline'), { target: { value: 'Free delivery all week' } });
    fireEvent.change(own.getByLabelText('Offer'), { target: { value: 'bundle' } });
    // A rule broken in one file stops the whole batch before anything is uploaded, and names the fact.
    fireEvent.change(own.getByLabelText('Last seen'), { target: { value: '2026-04-01' } });
    fireEvent.click(uploadAll());
    expect(await screen.findByText('Nothing was uploaded', {}, SLOW)).toBeTruthy();
    expect(within(rows()[1]!).getByRole('alert').textContent).toContain('Check these facts: Last seen.');
    expect(uploadSteps()).toEqual([]);
    expect(statuses()).toEqual(['pending', 'pending']);

    fireEvent.change(own.getByLabelText('Last seen'), { target: { value: '' } });
    fireEvent.click(uploadAll());
    await screen.findByText('Processed all files.', {}, SLOW);
    const [a, b] = services.ads;
    const common = { platforms: ['instagram'], first_seen: '2026-05-01', still_running: true, country: 'FR', hook_id: '7c3f5d8e-1a2b-4c3d-9e8f-0a1b2c3d4e5f', placement: null };
    expect(a).toMatchObject({ ...common, offer: 'free_shipping', headline: null, image_text: 'TEXT OF a.jpg' });
    expect(b).toMatchObject({ ...common, offer: 'bundle', headline: 'Free delivery all week', last_seen: null, image_text: 'TEXT OF b.jpg' });
    expect(within(rows()[0]!).getByTestId('upload-image-text').textContent).toBe('Text in the image: TEXT OF a.jpg');
  });

  it('still uploads a file whose text cannot be read, and says it will be read later', async () => {
    services.failWhen = (step) => (step === 'text' ? 'worker failed to start' : null);
    renderSection();
    await screen.findByRole('option', { name: 'Lumora' }, SLOW);
    pick('Brand', 'b1');
    pick('Category', 'c1');
    chooseFiles([imageFile('a.jpg')]);
    fireEvent.click(uploadAll());
    await screen.findByText('Processed all files.', {}, SLOW);
    // The toast and the row's status are two renders: wait for the row.
    await waitFor(() => expect(statuses()).toEqual(['done']), SLOW);
    expect(services.ads[0]!.image_text).toBeNull();
    expect(rows()[0]!.textContent).toContain('The text in the image could not be read. The ad is uploaded; "Read text in images" reads it later.');
    expect(document.body.textContent).not.toContain('worker failed');
  });

  it('flags a file that looks like an ad of the library, with its image, and uploads nothing until it is skipped or kept', async () => {
    services.hashes = { 'again.jpg': '12345', 'fresh.jpg': '-987654321' };
    services.libraryDuplicates = {
      '12345': [{ id: 'ad-1', brandName: 'Lumora', imageUrl: 'https://cdn.test/lumora.webp', distance: 1 }],
    };
    renderSection();
    await screen.findByRole('option', { name: 'Lumora' }, SLOW);
    pick('Brand', 'b1');
    pick('Category', 'c1');
    chooseFiles([imageFile('again.jpg'), imageFile('fresh.jpg')]);
    const notice = await screen.findByTestId('duplicate-notice', {}, SLOW);
    expect(within(rows()[0]!).getByTestId('duplicate-notice')).toBe(notice);
    expect(notice.textContent).toContain('Looks like an ad already in the library');
    expect(notice.textContent).toContain('nearly identical');
    expect(within(notice).getByRole('img', { name: 'Lumora ad' }).getAttribute('src')).toBe('https://cdn.test/lumora.webp');
    expect(within(rows()[1]!).queryByTestId('duplicate-notice')).toBeNull();

    fireEvent.click(uploadAll());
    expect(await screen.findByText('Some files look like images already uploaded. Skip or keep each of them, then upload again.', {}, SLOW)).toBeTruthy();
    expect(services.ads).toEqual([]);

    // Keep: it uploads, with its fingerprint, and so does the other.
    fireEvent.click(within(notice).getByRole('button', { name: 'Keep again.jpg' }));
    expect(within(rows()[0]!).getByTestId('duplicate-kept')).toBeTruthy();
    fireEvent.click(uploadAll());
    await screen.findByText('Processed all files.', {}, SLOW);
    expect(services.ads.map((ad) => ad.visual_hash)).toEqual(['12345', '-987654321']);
    expect(services.ads[0]).toMatchObject({ colour_histogram: [1, ...new Array(15).fill(0)], dominant_colours: [{ hex: '#d7263d', share: 1 }] });
  });

  it('flags a file that looks like an earlier file of the list; Skip takes it off', async () => {
    services.hashes = { 'first.jpg': '4096', 'second.jpg': '4097' };
    renderSection();
    await screen.findByRole('option', { name: 'Lumora' }, SLOW);
    pick('Brand', 'b1');
    pick('Category', 'c1');
    chooseFiles([imageFile('first.jpg'), imageFile('second.jpg')]);
    const notice = await screen.findByTestId('duplicate-notice', {}, SLOW);
    expect(within(rows()[1]!).getByTestId('duplicate-notice')).toBe(notice);
    expect(notice.textContent).toContain('Looks like another file in this list');
    expect(notice.textContent).toContain('Nearly the same image as first.jpg.');
    fireEvent.click(within(notice).getByRole('button', { name: 'Skip second.jpg' }));
    expect(rows()).toHaveLength(1);
    fireEvent.click(uploadAll());
    await screen.findByText('Processed all files.', {}, SLOW);
    expect(services.ads.map((ad) => ad.visual_hash)).toEqual(['4096']);
  });

  it('flags a video whose poster frame looks like an ad of the library, and makes its poster once, as it joins', async () => {
    services.hashes = { 'clip.webm': '777' };
    services.libraryDuplicates = {
      '777': [{ id: 'ad-9', brandName: 'Lumora', imageUrl: 'https://cdn.test/lumora-video.webp', distance: 4 }],
    };
    renderSection();
    await screen.findByRole('option', { name: 'Lumora' }, SLOW);
    pick('Brand', 'b1');
    pick('Category', 'c1');
    chooseFiles([videoFile('clip.webm')]);
    const notice = await screen.findByTestId('duplicate-notice', {}, SLOW);
    expect(notice.textContent).toContain('Looks like an ad already in the library');
    expect(within(notice).getByRole('img', { name: 'Lumora ad' }).getAttribute('src')).toBe('https://cdn.test/lumora-video.webp');
    expect(services.log.filter((line) => line === 'video clip.webm')).toHaveLength(1);

    fireEvent.click(within(notice).getByRole('button', { name: 'Keep clip.webm' }));
    fireEvent.click(uploadAll());
    await screen.findByText('Processed all files.', {}, SLOW);
    expect(services.ads[0]).toMatchObject({ format: 'video', visual_hash: '777', video_duration_ms: 4200 });
    // The upload took the poster made as the file joined.
    expect(services.log.filter((line) => line === 'video clip.webm')).toHaveLength(1);
  });

  it('says nothing of near-duplicates for a video whose poster cannot be made: its upload fails and says why', async () => {
    services.failWhen = (step) => (step === 'video' ? 'unreadable' : null);
    renderSection();
    await screen.findByRole('option', { name: 'Lumora' }, SLOW);
    pick('Brand', 'b1');
    pick('Category', 'c1');
    chooseFiles([videoFile('broken.webm')]);
    await waitFor(() => expect(services.log).toContain('video broken.webm'), SLOW);
    expect(rows()[0]!.textContent).not.toContain('near-duplicates');
    fireEvent.click(uploadAll());
    await waitFor(() => expect(statuses()).toEqual(['error']), SLOW);
    expect(services.ads).toEqual([]);
  });

  it('uploads a file it could not fingerprint, without a fingerprint, and says it was not checked', async () => {
    services.failWhen = (step) => (step === 'fingerprint' ? 'canvas refused' : null);
    renderSection();
    await screen.findByRole('option', { name: 'Lumora' }, SLOW);
    pick('Brand', 'b1');
    pick('Category', 'c1');
    chooseFiles([imageFile('odd.jpg')]);
    await waitFor(() => expect(rows()[0]!.textContent).toContain('Could not check this image for near-duplicates. It uploads as it is.'), SLOW);
    fireEvent.click(uploadAll());
    await screen.findByText('Processed all files.', {}, SLOW);
    expect(services.ads[0]).toMatchObject({ visual_hash: null, colour_histogram: null, dominant_colours: null });
    expect(document.body.textContent).not.toContain('canvas refused');
  });
});
