import { createBrowserRouter } from 'react-router-dom';
import { appRoutes } from './app-routes.tsx';

export const router = createBrowserRouter(appRoutes);
