import { ADMIN_TEXTS } from '../../../lib/admin-texts.ts';
import type { VisualFingerprint } from '../../../lib/media/visual-fingerprint.ts';
import type { BackfillServices } from '../api/backfill-worklist.ts';
import { supabaseFingerprintServices } from '../api/fingerprint-services.ts';
import { BackfillCard } from './backfill-card.tsx';

/**
 * /admin's "Fingerprint images": fingerprints, in this browser, the image of
 * every ad that has no fingerprint yet, so it can be found by colour, in
 * "More like this" and as a near-duplicate (docs/decisions/0038).
 */
export function FingerprintBackfillCard({ services = supabaseFingerprintServices }: { services?: BackfillServices<VisualFingerprint> }) {
  return <BackfillCard id="fingerprint-backfill" texts={ADMIN_TEXTS.fingerprintBackfill} services={services} />;
}
