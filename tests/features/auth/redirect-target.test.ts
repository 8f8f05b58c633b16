import { describe, expect, it } from 'vitest';
import { guardRedirectFor } from '../../../src/features/auth/hooks/guard-redirect.ts';
import { redirectTargetFrom, safeRedirectTarget } from '../../../src/features/auth/hooks/use-redirect-target.ts';

describe('safeRedirectTarget', () => {
  it.each([
    ['/profile', '/profile'],
    ['/library?brand=Lumora&tags=a,b', '/library?brand=Lumora&tags=a,b'],
    ['/collection/42#top', '/collection/42#top'],
  ])('follows the same-origin relative path %s', (raw, expected) => {
    expect(safeRedirectTarget(raw)).toBe(expected);
  });

  it.each([
    ['an absolute URL on another site', 'https://evil.example'],
    ['a protocol-relative URL', '//evil.example'],
    ['a backslash that browsers read as a second slash', '/\\evil.example'],
    ['a tab that URL parsing drops between two slashes', '/\t/evil.example'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['a relative path without a leading slash', 'profile'],
    ['nothing', ''],
    ['a missing parameter', null],
  ])('falls back to /library for %s', (_, raw) => {
    expect(safeRedirectTarget(raw)).toBe('/library');
  });

  it('falls back to the given default', () => {
    expect(safeRedirectTarget('https://evil.example', '/admin')).toBe('/admin');
  });
});

describe('the sign-in target of a query', () => {
  it('reads redirect first, then next, then defaults to /library', () => {
    expect(redirectTargetFrom('?redirect=%2Fprofile&next=%2Ffavorites')).toBe('/profile');
    expect(redirectTargetFrom('?next=%2Ffavorites%3Fq%3Dx')).toBe('/favorites?q=x');
    expect(redirectTargetFrom('')).toBe('/library');
    expect(redirectTargetFrom('?redirect=https%3A%2F%2Fevil.example')).toBe('/library');
  });
});

describe('the route guard rule', () => {
  it.each(['/favorites', '/profile', '/admin', '/admin/ads'])('sends a signed-out visitor of %s to sign in with a redirect back', (pathname) => {
    expect(guardRedirectFor({ pathname, search: '?tab=1' }, false)).toBe(`/auth/signin?redirect=${encodeURIComponent(`${pathname}?tab=1`)}`);
  });

  it.each(['/library', '/auth/signin', '/ads/1', '/profiles'])('lets a signed-out visitor stay on %s', (pathname) => {
    expect(guardRedirectFor({ pathname, search: '' }, false)).toBeNull();
  });

  it.each(['/auth/signin', '/auth/signup', '/auth/forgot-password'])('sends a signed-in user on %s to the library', (pathname) => {
    expect(guardRedirectFor({ pathname, search: '' }, true)).toBe('/library');
  });

  it('sends a signed-in user on sign-in to its safe redirect target', () => {
    expect(guardRedirectFor({ pathname: '/auth/signin', search: '?redirect=%2Fprofile' }, true)).toBe('/profile');
    expect(guardRedirectFor({ pathname: '/auth/signin', search: '?redirect=%2F%2Fevil.example' }, true)).toBe('/library');
  });

  it('sends a signed-in user on /auth to /admin and leaves reset-password alone', () => {
    expect(guardRedirectFor({ pathname: '/auth', search: '' }, true)).toBe('/admin');
    expect(guardRedirectFor({ pathname: '/auth/reset-password', search: '?code=x' }, true)).toBeNull();
    expect(guardRedirectFor({ pathname: '/profile', search: '' }, true)).toBeNull();
  });
});
