import { ADMIN_TEXTS } from '../../../lib/admin-texts.ts';
import type { BackfillServices } from '../api/backfill-worklist.ts';
import { supabaseImageTextServices } from '../api/image-text-services.ts';
import { BackfillCard } from './backfill-card.tsx';

/** /admin's "Read text in images": reads, in this browser, the image text of every ad that has none yet (docs/decisions/0034). */
export function ImageTextBackfillCard({ services = supabaseImageTextServices }: { services?: BackfillServices<string> }) {
  return <BackfillCard id="image-text-backfill" texts={ADMIN_TEXTS.imageTextBackfill} services={services} />;
}
