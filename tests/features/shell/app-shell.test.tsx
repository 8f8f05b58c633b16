// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Session } from '@supabase/supabase-js';
import { fakeSupabase, sessionFor } from '../support/fake-supabase.ts';
import { renderApp, setUpAppTests } from '../support/render-app.tsx';

vi.mock('../../../src/lib/supabase-client.ts', async () => ({ supabase: (await import('../support/fake-supabase.ts')).fakeSupabase.client }));
// The collections list is the boards' own component with its own tests: here it only has to be placed, with the sidebar's state.
vi.mock('../../../src/features/boards/components/sidebar-collections.tsx', () => ({
  SidebarCollections: ({ collapsed }: { collapsed: boolean }) => <div data-testid="sidebar-collections" data-collapsed={String(collapsed)} />,
}));

function signedIn(): Session {
  const session = sessionFor('11111111-1111-4111-8111-111111111111', 'frankie@example.test');
  session.user.user_metadata = { full_name: 'Frankie Free' };
  return session;
}

/** jsdom has no layout: the mobile breakpoint is answered by a matchMedia stand-in. */
function setViewport(mobile: boolean) {
  window.matchMedia = ((query: string) => ({
    matches: mobile && query.includes('max-width: 767px'),
    media: query,
    onchange: null,
    addEventListener: () => {},
    removeEventListener: () => {},
    addListener: () => {},
    removeListener: () => {},
    dispatchEvent: () => false,
  })) as unknown as typeof window.matchMedia;
}

function clearCookies() {
  for (const part of document.cookie.split(';')) {
    const name = part.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; path=/; max-age=0`;
  }
}

const sidebar = () => screen.getByTestId('app-sidebar');

/** The shell's menu button, once the session is known and the shell (not the plain header) is showing. */
async function shellMenuButton() {
  return within(await screen.findByTestId('app-shell')).findByRole('button', { name: 'Open menu' });
}

describe('the app shell', () => {
  setUpAppTests();
  beforeEach(() => {
    clearCookies();
    setViewport(false);
  });
  afterEach(() => clearCookies());

  it('gives a signed-in user the sidebar: logo, the boards, My Obyects with Favorites and the collections, the footer links and the profile card', async () => {
    fakeSupabase.session = signedIn();
    renderApp('/library');
    await waitFor(() => expect(sidebar().dataset.state).toBe('expanded'));
    const nav = within(sidebar());
    expect(nav.getByRole('link', { name: 'Obyect – Library' }).getAttribute('href')).toBe('/library');
    expect(nav.getByRole('link', { name: 'Library' }).getAttribute('aria-current')).toBe('page');
    expect(nav.getByRole('link', { name: 'Black Friday Board' }).getAttribute('href')).toBe('/black-friday');
    expect(nav.getByRole('link', { name: 'Top picks' }).getAttribute('href')).toBe('/top-picks');
    expect(nav.getByText('My Obyects:')).toBeTruthy();
    expect(nav.getByRole('link', { name: 'Favorites' }).getAttribute('href')).toBe('/favorites');
    expect(nav.getByTestId('sidebar-collections').dataset.collapsed).toBe('false');

    const feature = nav.getByRole('link', { name: 'Request a feature' });
    expect(feature.getAttribute('target')).toBe('_blank');
    expect(feature.getAttribute('rel')).toContain('noopener');
    expect(nav.getByRole('link', { name: 'Contact us' }).getAttribute('href')).toMatch(/^mailto:/);
    expect(nav.getByRole('link', { name: 'Discover Obyect Agency' }).getAttribute('target')).toBe('_blank');

    const card = nav.getByTestId('profile-card');
    expect(card.getAttribute('href')).toBe('/profile');
    expect(card.textContent).toContain('Frankie Free');
    expect(card.textContent).toContain('frankie@example.test');
    // The plain header's account controls are not there.
    expect(screen.queryByRole('link', { name: 'Login' })).toBeNull();
    // The footer still is.
    expect(within(screen.getByRole('navigation', { name: 'Footer' })).getByRole('link', { name: 'Terms' }).getAttribute('href')).toBe('/terms');
  });

  it('links admins, and only admins, to /admin from the sidebar', async () => {
    fakeSupabase.session = signedIn();
    const view = renderApp('/library');
    await waitFor(() => expect(fakeSupabase.callsOf('is_admin').length).toBeGreaterThan(0));
    expect(within(await screen.findByTestId('app-sidebar')).queryByRole('link', { name: 'Admin' })).toBeNull();
    view.unmount();

    fakeSupabase.onRpc('is_admin', () => ({ data: true, error: null }));
    renderApp('/library');
    const admin = await within(await screen.findByTestId('app-sidebar')).findByRole('link', { name: 'Admin' });
    expect(admin.getAttribute('href')).toBe('/admin');
  });

  it("shows 'Upgrade Plan' to a signed-in user without a subscription once entitlement is known, and opens the plans", async () => {
    fakeSupabase.session = signedIn();
    renderApp('/library');
    const upgrade = await within(await screen.findByTestId('app-sidebar')).findByRole('button', { name: 'Upgrade Plan' });
    fireEvent.click(upgrade);
    expect(await screen.findByRole('dialog', { name: 'Unlock every winning ad' })).toBeTruthy();
  });

  it("hides 'Upgrade Plan' from a subscriber", async () => {
    fakeSupabase.session = signedIn();
    fakeSupabase.onRpc('has_valid_access', () => ({ data: true, error: null }));
    renderApp('/library');
    await screen.findByTestId('app-sidebar');
    await waitFor(() => expect(fakeSupabase.callsOf('has_valid_access').length).toBeGreaterThan(0));
    // Give the answer time to arrive; the button must still be absent.
    await act(async () => new Promise((resolve) => setTimeout(resolve, 20)));
    expect(within(sidebar()).queryByRole('button', { name: 'Upgrade Plan' })).toBeNull();
  });

  it('collapses to icons with the toggle, keeps the state in a cookie for 7 days, and starts collapsed from that cookie', async () => {
    fakeSupabase.session = signedIn();
    const first = renderApp('/library');
    await waitFor(() => expect(sidebar().dataset.state).toBe('expanded'));
    expect(sidebar().style.width).toBe('272px');
    const cookieWrites: string[] = [];
    const descriptor = Object.getOwnPropertyDescriptor(Document.prototype, 'cookie')!;
    vi.spyOn(document, 'cookie', 'set').mockImplementation((value: string) => {
      cookieWrites.push(value);
      descriptor.set!.call(document, value);
    });

    fireEvent.click(screen.getByRole('button', { name: 'Toggle sidebar' }));
    expect(sidebar().dataset.state).toBe('collapsed');
    expect(sidebar().style.width).toBe('72px');
    expect(within(sidebar()).getByTestId('sidebar-collections').dataset.collapsed).toBe('true');
    // Labels go; the links keep their names for assistive technology.
    expect(within(sidebar()).getByRole('link', { name: 'Top picks' }).textContent).toBe('');
    expect(cookieWrites.at(-1)).toMatch(/^sidebar_state=false; path=\/; max-age=604800/);
    expect(document.cookie).toContain('sidebar_state=false');

    first.unmount();
    renderApp('/library');
    await waitFor(() => expect(sidebar().dataset.state).toBe('collapsed'));
  });

  it('toggles the sidebar with Ctrl+B and with Cmd+B', async () => {
    fakeSupabase.session = signedIn();
    renderApp('/library');
    await waitFor(() => expect(sidebar().dataset.state).toBe('expanded'));
    fireEvent.keyDown(window, { key: 'b', ctrlKey: true });
    expect(sidebar().dataset.state).toBe('collapsed');
    fireEvent.keyDown(window, { key: 'b', metaKey: true });
    expect(sidebar().dataset.state).toBe('expanded');
    // Other combinations leave it alone.
    fireEvent.keyDown(window, { key: 'b' });
    fireEvent.keyDown(window, { key: 'b', ctrlKey: true, shiftKey: true });
    expect(sidebar().dataset.state).toBe('expanded');
  });

  it('opens a 280 px drawer from the menu button on mobile, with Profile Settings, Logout and Share, and closes it after navigating', async () => {
    setViewport(true);
    fakeSupabase.session = signedIn();
    const app = renderApp('/library');
    const menuButton = await shellMenuButton();
    fireEvent.click(menuButton);
    const drawer = await screen.findByRole('dialog', { name: 'Menu' });
    expect(drawer.style.width).toBe('280px');
    const inside = within(drawer);
    expect(inside.getByRole('link', { name: 'Profile Settings' }).getAttribute('href')).toBe('/profile');
    expect(inside.getByRole('button', { name: 'Logout' })).toBeTruthy();
    expect(inside.getByRole('button', { name: 'Share' })).toBeTruthy();
    expect(inside.getByTestId('sidebar-collections').dataset.collapsed).toBe('false');
    // Modal: the focus moved into the drawer.
    await waitFor(() => expect(drawer.contains(document.activeElement)).toBe(true));

    fireEvent.click(inside.getByRole('link', { name: 'Top picks' }));
    await waitFor(() => expect(app.currentUrl()).toBe('/top-picks'));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Menu' })).toBeNull());
  });

  it('renders the hidden sidebar empty on mobile, where only the drawer carries the navigation, and fills it from 768 px', async () => {
    setViewport(true);
    fakeSupabase.session = signedIn();
    renderApp('/library');
    await shellMenuButton();
    expect(within(sidebar()).queryByRole('navigation')).toBeNull();
    expect(screen.queryByTestId('sidebar-collections')).toBeNull();
    cleanup();
    setViewport(false);
    renderApp('/library');
    expect(await within(await screen.findByTestId('app-sidebar')).findByRole('navigation', { name: 'Main' })).toBeTruthy();
  });

  it('returns the focus to the menu button when the drawer closes with Escape', async () => {
    setViewport(true);
    fakeSupabase.session = signedIn();
    renderApp('/library');
    const menuButton = await shellMenuButton();
    menuButton.focus();
    fireEvent.click(menuButton);
    const drawer = await screen.findByRole('dialog', { name: 'Menu' });
    await waitFor(() => expect(drawer.contains(document.activeElement)).toBe(true));
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Menu' })).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Open menu' })));
  });

  it('logs out from the drawer: the toast, then the sign-in page', async () => {
    setViewport(true);
    fakeSupabase.session = signedIn();
    const app = renderApp('/library');
    fireEvent.click(await shellMenuButton());
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Menu' })).getByRole('button', { name: 'Logout' }));
    await waitFor(() => expect(app.currentUrl()).toBe('/auth/signin'));
    expect(await screen.findByText('Logged out')).toBeTruthy();
  });
});

describe('the plain layout', () => {
  setUpAppTests();
  beforeEach(() => {
    clearCookies();
    setViewport(false);
  });

  it('gives an anonymous visitor the top header with Library highlighted, Login and Sign Up, and no sidebar', async () => {
    renderApp('/library');
    const header = await screen.findByRole('banner');
    const nav = within(header).getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Library' }).getAttribute('aria-current')).toBe('page');
    expect(within(nav).getByRole('link', { name: 'Favorites' }).getAttribute('aria-current')).toBeNull();
    expect(within(header).getByRole('link', { name: 'Login' }).getAttribute('href')).toBe('/auth/signin');
    expect(within(header).getByRole('link', { name: 'Sign Up' }).getAttribute('href')).toBe('/auth/signup');
    expect(within(header).queryByRole('button', { name: 'Upgrade Plan' })).toBeNull();
    expect(screen.queryByTestId('app-sidebar')).toBeNull();
    // Ctrl+B means nothing without a sidebar.
    fireEvent.keyDown(window, { key: 'b', ctrlKey: true });
    expect(screen.queryByTestId('app-sidebar')).toBeNull();
  });

  it('repeats the header in a mobile menu with Login, Sign Up and Share, closing after navigation', async () => {
    setViewport(true);
    const app = renderApp('/terms');
    fireEvent.click(await screen.findByRole('button', { name: 'Open menu' }));
    const drawer = within(await screen.findByRole('dialog', { name: 'Menu' }));
    expect(drawer.getByRole('link', { name: 'Login' })).toBeTruthy();
    expect(drawer.getByRole('link', { name: 'Sign Up' })).toBeTruthy();
    expect(drawer.getByRole('button', { name: 'Share' })).toBeTruthy();
    fireEvent.click(drawer.getByRole('link', { name: 'Library' }));
    await waitFor(() => expect(app.currentUrl()).toBe('/library'));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Menu' })).toBeNull());
  });
});
