import { Route, Routes, useLocation, useRoutes, type Location, type RouteObject } from 'react-router-dom';
import { AuthRouteGuard } from '../features/auth/components/auth-route-guard.tsx';
import { AdDetailRoute } from './routes/ad-detail.tsx';
import { AdminPage } from './routes/admin.tsx';
import { AdminLoginPage } from './routes/auth-admin-login.tsx';
import { CollectionPage } from './routes/collection.tsx';
import { FavoritesPage } from './routes/favorites.tsx';
import { ForgotPasswordPage } from './routes/auth-forgot-password.tsx';
import { ResetPasswordPage } from './routes/auth-reset-password.tsx';
import { SignInPage } from './routes/auth-signin.tsx';
import { SignUpPage } from './routes/auth-signup.tsx';
import { LibraryPage } from './routes/library.tsx';
import { NotFoundPage } from './routes/not-found.tsx';
import { ProfilePage } from './routes/profile.tsx';
import { BlackFridayPage } from './routes/black-friday.tsx';
import { PrivacyPage } from './routes/privacy.tsx';
import { TermsPage } from './routes/terms.tsx';
import { TopPicksPage } from './routes/top-picks.tsx';
import { RootRedirect } from './routes/root-redirect.tsx';

/** The pages, by path. */
export const pageRoutes: RouteObject[] = [
  { path: '/', element: <RootRedirect /> },
  { path: '/library', element: <LibraryPage /> },
  { path: '/ads/:id', element: <AdDetailRoute mode="page" /> },
  { path: '/admin', element: <AdminPage /> },
  { path: '/auth', element: <AdminLoginPage /> },
  { path: '/auth/signin', element: <SignInPage /> },
  { path: '/auth/signup', element: <SignUpPage /> },
  { path: '/auth/forgot-password', element: <ForgotPasswordPage /> },
  { path: '/auth/reset-password', element: <ResetPasswordPage /> },
  { path: '/profile', element: <ProfilePage /> },
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
      <AuthRouteGuard>{page}</AuthRouteGuard>
      {background && (
        <Routes>
          <Route path="/ads/:id" element={<AdDetailRoute mode="modal" />} />
        </Routes>
      )}
    </>
  );
}
