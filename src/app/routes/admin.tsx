import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { buttonClasses } from '../../components/ui/button.tsx';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import { useSession } from '../../lib/auth-session.tsx';
import { ADMIN_TEXTS } from '../../lib/admin-texts.ts';
import { AdminAdsSection } from '../../features/admin-ads/components/admin-ads-section.tsx';
import { AdminUtilitiesCard } from '../../features/admin-ads/components/admin-utilities-card.tsx';
import { FingerprintBackfillCard } from '../../features/admin-backfills/components/fingerprint-backfill-card.tsx';
import { ImageTextBackfillCard } from '../../features/admin-backfills/components/image-text-backfill-card.tsx';
import { AdminCatalogSection } from '../../features/admin-catalog/components/admin-catalog-section.tsx';
import { AdminUploadSection } from '../../features/admin-upload/components/admin-upload-section.tsx';
import { isAdminQueryOptions } from '../../features/library/api/get-is-admin.ts';
import { SiteLayout } from '../layout/site-layout.tsx';
import { MAIN_CONTENT_ID } from '../../lib/constants.ts';

const T = ADMIN_TEXTS.adminPage;

function Notice({ children }: { children: ReactNode }) {
  return (
    <SiteLayout>
      <main id={MAIN_CONTENT_ID} className="mx-auto flex max-w-xl flex-col items-center px-4 py-20 text-center sm:py-28">{children}</main>
    </SiteLayout>
  );
}

/**
 * /admin: bulk upload, the catalogue, utilities and the ad table. Who is an
 * admin comes from the server (is_admin() over the admin_users table); every
 * write is refused by the database for anyone else whatever this page shows.
 */
export function AdminPage() {
  useDocumentTitle(T.documentTitle);
  const { user, loading } = useSession();
  const admin = useQuery(isAdminQueryOptions(user?.id ?? null));

  if (loading) return null;
  if (!user) {
    return (
      <Notice>
        <p className="text-[15px] text-neutral-700">{T.signedOut}</p>
        <Link to="/auth" className={buttonClasses('primary', 'md', 'mt-5')}>
          {T.signInLink}
        </Link>
      </Notice>
    );
  }
  if (admin.isPending) {
    return (
      <Notice>
        <p role="status" className="text-sm text-neutral-500">
          {T.checking}
        </p>
      </Notice>
    );
  }
  if (admin.data !== true) {
    return (
      <Notice>
        <p role="alert" className="text-[15px] font-medium text-neutral-800">
          {T.accessDenied}
        </p>
      </Notice>
    );
  }

  return (
    <SiteLayout>
      <main id={MAIN_CONTENT_ID} className="mx-auto max-w-6xl px-4 pt-6 pb-16 sm:px-6 sm:pt-10 lg:px-8">
        <div className="mb-6 sm:mb-8">
          <h1 className="text-2xl font-bold tracking-tight text-neutral-950 sm:text-[32px]">{T.heading}</h1>
          <p className="mt-1 text-[15px] text-neutral-500">{T.subheading}</p>
        </div>
        <div className="space-y-6">
          <AdminUploadSection />
          <AdminCatalogSection />
          <AdminUtilitiesCard />
          <ImageTextBackfillCard />
          <FingerprintBackfillCard />
          <AdminAdsSection />
        </div>
      </main>
    </SiteLayout>
  );
}
