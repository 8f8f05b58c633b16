import { useEffect } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { buttonClasses } from '../../components/ui/button.tsx';
import { usePageMetadata } from '../../hooks/use-document-title.ts';
import { SHELL_TEXTS } from '../../lib/shell-texts.ts';
import { SiteLayout } from '../layout/site-layout.tsx';
import { MAIN_CONTENT_ID } from '../../lib/constants.ts';

/** Any path without a page: 'Oops! Page not found' and the way home. */
export function NotFoundPage() {
  const location = useLocation();
  const T = SHELL_TEXTS.notFound;
  usePageMetadata({ title: T.documentTitle, description: T.description });
  useEffect(() => {
    // A warning, not an error: a mistyped address is the visitor's, not a fault of the app.
    console.warn(`No page at ${location.pathname}`);
  }, [location.pathname]);
  return (
    <SiteLayout>
      <main id={MAIN_CONTENT_ID} className="flex min-h-[60vh] flex-col items-center justify-center gap-4 px-6 py-16 text-center">
        <p className="text-6xl font-bold tracking-tight text-neutral-500" aria-hidden="true">
          {T.code}
        </p>
        <h1 className="text-2xl font-bold tracking-tight text-neutral-950 sm:text-3xl">{T.title}</h1>
        <Link to="/" className={buttonClasses('primary', 'md')}>
          {T.home}
        </Link>
      </main>
    </SiteLayout>
  );
}
