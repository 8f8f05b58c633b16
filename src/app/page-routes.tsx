import { lazy, Suspense } from 'react';
import { Route, Routes, useLocation, useRoutes, type Location, type RouteObject } from 'react-router-dom';
import { AuthRouteGuard } from '../features/auth/components/auth-route-guard.tsx';
import { LibraryPage } from './routes/library.tsx';
import { RootRedirect } from './routes/root-redirect.tsx';

/**
 * Every page but the library (the landing page) is its own chunk, loaded on
 * first visit: the library's initial JavaScript carries no admin, billing
 * pages, account forms or ad detail.
 */
const AdDetailRoute = lazy(() => import('./routes/ad-detail.tsx').then((module) => ({ default: module.AdDetailRoute })));
const AdminPage = lazy(() => import('./routes/admin.tsx').then((module) => ({ default: module.AdminPage })));
const AdminLoginPage = lazy(() => import('./routes/auth-admin-login.tsx').then((module) => ({ default: module.AdminLoginPage })));
const CollectionPage = lazy(() => import('./routes/collection.tsx').then((module) => ({ default: module.CollectionPage })));
const FavoritesPage = lazy(() => import('./routes/favorites.tsx').then((module) => ({ default: module.FavoritesPage })));
const ForgotPasswordPage = lazy(() => import('./routes/auth-forgot-password.tsx').then((module) => ({ default: module.ForgotPasswordPage })));
const ResetPasswordPage = lazy(() => import('./routes/auth-reset-password.tsx').then((module) => ({ default: module.ResetPasswordPage })));
const SignInPage = lazy(() => import('./routes/auth-signin.tsx').then((module) => ({ default: module.SignInPage })));
const SignUpPage = lazy(() => import('./routes/auth-signup.tsx').then((module) => ({ default: module.SignUpPage })));
const EmailConfirmedPage = lazy(() => import('./routes/auth-confirmed.tsx').then((module) => ({ default: module.EmailConfirmedPage })));
const NotFoundPage = lazy(() => import('./routes/not-found.tsx').then((module) => ({ default: module.NotFoundPage })));
const BillingPortalPage = lazy(() => import('./routes/profile-billing-portal.tsx').then((module) => ({ default: module.BillingPortalPage })));
const ProfilePage = lazy(() => import('./routes/profile.tsx').then((module) => ({ default: module.ProfilePage })));
const BlackFridayPage = lazy(() => import('./routes/black-friday.tsx').then((module) => ({ default: module.BlackFridayPage })));
const PrivacyPage = lazy(() => import('./routes/privacy.tsx').then((module) => ({ default: module.PrivacyPage })));
const TermsPage = lazy(() => import('./routes/terms.tsx').then((module) => ({ default: module.TermsPage })));
const TopPicksPage = lazy(() => import('./routes/top-picks.tsx').then((module) => ({ default: module.TopPicksPage })));

/** The pages, by path. */
export const pageRoutes: RouteObject[] = [
  { path: '/', element: <RootRedirect /> },
  { path: '/library', element: <LibraryPage /> },
  { path: '/ads/:id', element: <AdDetailRoute mode="page" /> },
  { path: '/admin', element: <AdminPage /> },
  { path: '/auth', element: <AdminLoginPage /> },
  { path: '/auth/signin', element: <SignInPage /> },
  { path: '/auth/signup', element: <SignUpPage /> },
  { path: '/auth/confirmed', element: <EmailConfirmedPage /> },
  { path: '/auth/forgot-password', element: <ForgotPasswordPage /> },
  { path: '/auth/reset-password', element: <ResetPasswordPage /> },
  { path: '/profile', element: <ProfilePage /> },
  { path: '/profile/billing-portal', element: <BillingPortalPage /> },
  { path: '/favorites', element: <FavoritesPage /> },
  { path: '/collection/:id', element: <CollectionPage /> },
  { path: '/black-friday', element: <BlackFridayPage /> },
  { path: '/top-picks', element: <TopPicksPage /> },
  { path: '/terms', element: <TermsPage /> },
  { path: '/privacy', element: <PrivacyPage /> },
  { path: '*', element: <NotFoundPage /> },
];

/** The navigation state of a link that opens a page as a modal over the current one. */
export interface ModalNavigationState {
  backgroundLocation: Location;
}

function backgroundOf(state: unknown): Location | null {
  const background = (state as Partial<ModalNavigationState> | null)?.backgroundLocation;
  return background && typeof background.pathname === 'string' ? background : null;
}

/**
 * Renders the page for the current location; with a background location in the
 * navigation state, that page stays underneath and the ad opens as a modal.
 */
export function PageRoutes() {
  const location = useLocation();
  const background = backgroundOf(location.state);
  const page = useRoutes(pageRoutes, background ?? location);
  return (
    <>
      <AuthRouteGuard>
        <Suspense fallback={<div className="min-h-screen" aria-busy="true" />}>{page}</Suspense>
      </AuthRouteGuard>
      {background && (
        <Suspense fallback={null}>
          <Routes>
            <Route path="/ads/:id" element={<AdDetailRoute mode="modal" />} />
          </Routes>
        </Suspense>
      )}
    </>
  );
}
