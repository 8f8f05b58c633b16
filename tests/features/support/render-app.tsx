import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { cleanup, configure, render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, beforeEach, vi } from 'vitest';
import { appRoutes } from '../../../src/app/app-routes.tsx';
import { AD_LOCALES, BRANDS, CATEGORIES, HOOKS, TAGS, TYPES } from './ad-fixtures.ts';
import { fakeSupabase } from './fake-supabase.ts';

// Waiting for an element gives up after 5 s rather than 1 s: on a busy two-core
// machine a render can take longer than a second without anything being wrong.
configure({ asyncUtilTimeout: 5_000 });

/** IntersectionObserver is missing from jsdom: this one lets a test bring the sentinel into view. */
export class TestIntersectionObserver {
  static instances: TestIntersectionObserver[] = [];
  readonly elements = new Set<Element>();
  disconnected = false;

  constructor(
    readonly callback: IntersectionObserverCallback,
    readonly options?: IntersectionObserverInit,
  ) {
    TestIntersectionObserver.instances.push(this);
  }

  observe(element: Element) {
    this.elements.add(element);
  }
  unobserve(element: Element) {
    this.elements.delete(element);
  }
  disconnect() {
    this.disconnected = true;
  }
  takeRecords() {
    return [];
  }

  /** Reports the observed elements as within the observer's margin of the viewport. */
  static intersectAll() {
    for (const observer of TestIntersectionObserver.instances.filter((instance) => !instance.disconnected)) {
      const entries = [...observer.elements].map((target) => ({ isIntersecting: true, target }) as IntersectionObserverEntry);
      if (entries.length > 0) observer.callback(entries, observer as unknown as IntersectionObserver);
    }
  }
}

class TestResizeObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}

/** Browser APIs jsdom lacks, a clean fake backend with the catalogue, and a clean DOM and storage per test. */
export function setUpAppTests() {
  beforeEach(() => {
    fakeSupabase.reset();
    fakeSupabase.onTable('brands', () => ({ data: BRANDS, error: null }));
    fakeSupabase.onTable('categories', () => ({ data: CATEGORIES, error: null }));
    fakeSupabase.onTable('types', () => ({ data: TYPES, error: null }));
    fakeSupabase.onTable('tags', () => ({ data: TAGS, error: null }));
    fakeSupabase.onTable('hooks', () => ({ data: HOOKS, error: null }));
    fakeSupabase.onRpc('list_ads', () => ({ data: { ads: [], next_cursor: null }, error: null }));
    fakeSupabase.onRpc('list_ad_locales', () => ({ data: AD_LOCALES, error: null }));
    fakeSupabase.onRpc('has_valid_access', () => ({ data: false, error: null }));
    fakeSupabase.onRpc('is_admin', () => ({ data: false, error: null }));
    TestIntersectionObserver.instances = [];
    globalThis.IntersectionObserver = TestIntersectionObserver as unknown as typeof IntersectionObserver;
    globalThis.ResizeObserver = TestResizeObserver as unknown as typeof ResizeObserver;
    window.scrollTo = (() => {}) as typeof window.scrollTo;
    window.localStorage.clear();
    window.sessionStorage.clear();
  });
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
  });
}

/** The whole SPA at a URL, on a memory router, with a fresh query cache. */
export function renderApp(url: string, options: { state?: unknown } = {}) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 60_000 } } });
  const router = createMemoryRouter(appRoutes, { initialEntries: [{ pathname: url.split(/[?#]/)[0]!, search: searchOf(url), hash: hashOf(url), state: options.state }] });
  // StrictMode as in main.tsx: effects run twice on mount, so counting and loading must be idempotent.
  const view = render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </StrictMode>,
  );
  return { ...view, router, queryClient, currentUrl: () => `${router.state.location.pathname}${router.state.location.search}${router.state.location.hash}` };
}

function searchOf(url: string) {
  const match = /\?[^#]*/.exec(url);
  return match ? match[0] : '';
}

function hashOf(url: string) {
  const index = url.indexOf('#');
  return index >= 0 ? url.slice(index) : '';
}
