import type { RouteObject } from 'react-router-dom';
import { AppRoot } from './app-root.tsx';
import { PageRoutes } from './page-routes.tsx';

/** The whole app under a router: the shared root, then every page (see page-routes.tsx). */
export function App() {
  return (
    <AppRoot>
      <PageRoutes />
    </AppRoot>
  );
}

/** The app as one catch-all route, for a data router (the component tests' memory router). */
export const appRoutes: RouteObject[] = [{ path: '*', element: <App /> }];
