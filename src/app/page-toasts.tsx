import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { dismissToastsOfOtherPages } from '../lib/toast.ts';

/** Leaving a page takes its error toasts with it (lib/toast.ts): one place for every form and page. */
export function PageToasts() {
  const { pathname } = useLocation();
  useEffect(() => dismissToastsOfOtherPages(pathname), [pathname]);
  return null;
}
