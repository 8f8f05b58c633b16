// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import { AdminPage } from '../../../src/app/routes/admin.tsx';
import { AppRoot } from '../../../src/app/app-root.tsx';
import { fakeSupabase, sessionFor } from '../support/fake-supabase.ts';
import { renderApp, setUpAppTests } from '../support/render-app.tsx';

vi.mock('../../../src/lib/supabase-client.ts', async () => ({ supabase: (await import('../support/fake-supabase.ts')).fakeSupabase.client }));

const DENIED = 'Access denied. This admin panel is restricted to authorized users only.';
const SLOW = { timeout: 10_000 };

describe('/admin', () => {
  setUpAppTests();

  it('tells a signed-in user who is not an admin that access is denied, whatever the address', async () => {
    fakeSupabase.session = sessionFor('user-1', 'admin@obyect.local');
    renderApp('/admin');
    expect(await screen.findByText(DENIED, {}, SLOW)).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Bulk upload' })).toBeNull();
    expect(fakeSupabase.callsOf('is_admin')).toHaveLength(1);
  });

  it('denies access when the role cannot be checked', async () => {
    fakeSupabase.session = sessionFor('user-1');
    fakeSupabase.onRpc('is_admin', () => ({ data: null, error: { message: 'network down' } }));
    renderApp('/admin');
    expect(await screen.findByText(DENIED, {}, SLOW)).toBeTruthy();
  });

  it('shows the admin the upload, the catalogue, the utilities and the ad table', async () => {
    fakeSupabase.session = sessionFor('admin-1');
    fakeSupabase.onRpc('is_admin', () => ({ data: true, error: null }));
    renderApp('/admin');
    expect(await screen.findByRole('heading', { name: 'Admin', level: 1 }, SLOW)).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Bulk upload' })).toBeTruthy();
    expect(screen.getByText('up to 100 files')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Upload all' })).toBeTruthy();
    for (const section of ['Manage', 'Utilities', 'Ad Management']) expect(screen.getByRole('heading', { name: section, level: 2 })).toBeTruthy();
    expect(screen.queryByText(DENIED)).toBeNull();
    expect(document.title).toBe('Admin – Obyect');
  });

  it('asks a signed-out visitor to log in at /auth (the page itself, without the route guard in front)', async () => {
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const router = createMemoryRouter([{ path: '/admin', element: <AppRoot><AdminPage /></AppRoot> }], { initialEntries: ['/admin'] });
    render(
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
    const link = await screen.findByRole('link', { name: 'Log in at /auth' }, SLOW);
    expect(link.getAttribute('href')).toBe('/auth');
    expect(screen.queryByText(DENIED)).toBeNull();
    expect(fakeSupabase.callsOf('is_admin')).toHaveLength(0);
  });
});
