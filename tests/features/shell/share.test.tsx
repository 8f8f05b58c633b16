// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderApp, setUpAppTests } from '../support/render-app.tsx';

vi.mock('../../../src/lib/supabase-client.ts', async () => ({ supabase: (await import('../support/fake-supabase.ts')).fakeSupabase.client }));
vi.mock('../../../src/features/boards/components/sidebar-collections.tsx', () => ({ SidebarCollections: () => null }));

const PAGE = '/terms?from=share#eligibility';
const PAGE_URL = `http://localhost:3000${PAGE}`;

function setNavigator(values: { clipboard?: unknown; share?: unknown }) {
  Object.defineProperty(navigator, 'clipboard', { value: values.clipboard, configurable: true });
  Object.defineProperty(navigator, 'share', { value: values.share, configurable: true });
}

async function openShare() {
  const header = await screen.findByRole('banner');
  const button = within(header).getByRole('button', { name: 'Share' });
  button.focus();
  fireEvent.click(button);
  const dialog = await screen.findByRole('dialog', { name: 'Share' });
  return { button, dialog };
}

describe('the Share dialog', () => {
  setUpAppTests();
  afterEach(() => setNavigator({}));

  it("copies the page's address with Copy URL, says 'Link copied', closes and gives the focus back", async () => {
    const writeText = vi.fn(async () => {});
    setNavigator({ clipboard: { writeText } });
    renderApp(PAGE);
    const { button, dialog } = await openShare();
    expect(within(dialog).getByTestId('share-url').textContent).toBe(PAGE_URL);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Copy URL' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(PAGE_URL));
    expect(await screen.findByText('Link copied')).toBeTruthy();
    expect(screen.getByText('A shareable link is in your clipboard')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Share' })).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(button));
  });

  it("says 'Copy failed' when neither clipboard works", async () => {
    setNavigator({ clipboard: { writeText: async () => Promise.reject(new Error('denied')) } });
    document.execCommand = vi.fn(() => false);
    renderApp(PAGE);
    const { dialog } = await openShare();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Copy URL' }));
    expect(await screen.findByText('Copy failed')).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Share' })).toBeTruthy();
  });

  it('hands the link to the native share sheet for Share via Apple', async () => {
    const share = vi.fn(async () => {});
    setNavigator({ share });
    renderApp(PAGE);
    const { dialog } = await openShare();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Share via Apple' }));
    await waitFor(() => expect(share).toHaveBeenCalledWith(expect.objectContaining({ url: PAGE_URL })));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Share' })).toBeNull());
  });

  it('copies instead when the browser has no native share (Share via Android)', async () => {
    const writeText = vi.fn(async () => {});
    setNavigator({ clipboard: { writeText } });
    renderApp(PAGE);
    const { dialog } = await openShare();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Share via Android' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(PAGE_URL));
    expect(await screen.findByText('Native share not supported. Link copied.')).toBeTruthy();
  });

  it("says 'Share failed' when the share sheet fails, but not when the visitor dismisses it", async () => {
    const share = vi
      .fn()
      .mockRejectedValueOnce(new DOMException('dismissed', 'AbortError'))
      .mockRejectedValueOnce(new Error('not allowed'));
    setNavigator({ share });
    renderApp(PAGE);
    const { dialog } = await openShare();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Share via Android' }));
    await waitFor(() => expect(share).toHaveBeenCalledTimes(1));
    expect(screen.queryByText('Share failed')).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Share via Android' }));
    expect(await screen.findByText('Share failed')).toBeTruthy();
    expect(screen.getByText('Could not share the link.')).toBeTruthy();
  });

  it('keeps Tab inside the dialog while it is open', async () => {
    renderApp(PAGE);
    const { dialog } = await openShare();
    await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true));
    const close = within(dialog).getByRole('button', { name: 'Close' });
    close.focus();
    fireEvent.keyDown(close, { key: 'Tab' });
    expect(dialog.contains(document.activeElement)).toBe(true);
    expect(document.activeElement).not.toBe(close);
  });
});
