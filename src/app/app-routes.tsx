import type { RouteObject } from 'react-router-dom';
import { AppRoot } from './app-root.tsx';
import { PageRoutes } from './page-routes.tsx';

/** The router's tree: the shared root, then every page (see page-routes.tsx). */
export const appRoutes: RouteObject[] = [{ element: <AppRoot />, children: [{ path: '*', element: <PageRoutes /> }] }];
