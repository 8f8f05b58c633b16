import { apiErrorFrom } from '../../../lib/api-error.ts';
import { fingerprintOfFile } from '../../../lib/media/fingerprint-image.ts';
import type { VisualFingerprint } from '../../../lib/media/visual-fingerprint.ts';
import { supabase } from '../../../lib/supabase-client.ts';
import { fetchDisplayImage, listWorklistPage, type BackfillServices } from './backfill-worklist.ts';

/**
 * The fingerprint backfill: ads without a visual_hash, fingerprinted with the
 * upload's algorithm from their 960 display image (docs/decisions/0038 says
 * how close that comes to the original's), stored by admin_set_fingerprints.
 */
export const supabaseFingerprintServices: BackfillServices<VisualFingerprint> = {
  listPage: (after, limit) => listWorklistPage('admin_ads_without_fingerprint', after, limit),
  fetchImage: fetchDisplayImage,
  derive: (image) => fingerprintOfFile(image),
  async save(values) {
    const { error } = await supabase.rpc('admin_set_fingerprints', {
      p_fingerprints: values.map(({ id, value }) => ({ id, hash: value.hash, histogram: value.histogram, colours: value.colours })),
    });
    if (error) throw apiErrorFrom(error);
  },
};
