import { ADMIN_TEXTS } from '../../../lib/admin-texts.ts';
import { CATALOG_KINDS } from '../api/get-catalog-entries.ts';
import { AdminCard } from './admin-card.tsx';
import { BrandLogosCard } from './brand-logos-card.tsx';
import { CatalogList } from './catalog-list.tsx';
import { PageBannersCard } from './page-banners-card.tsx';

/** The admin's curation: the five catalogue lists (hooks: the ads' angles), brand logos and page banners. */
export function AdminCatalogSection() {
  return (
    <div className="space-y-6">
      <AdminCard title={ADMIN_TEXTS.adminManage.title} description={ADMIN_TEXTS.adminManage.description}>
        <div className="grid grid-cols-1 gap-3 md:grid-cols-2 xl:grid-cols-3 2xl:grid-cols-5">
          {CATALOG_KINDS.map((kind) => (
            <CatalogList key={kind} kind={kind} />
          ))}
        </div>
      </AdminCard>
      <BrandLogosCard />
      <PageBannersCard />
    </div>
  );
}
