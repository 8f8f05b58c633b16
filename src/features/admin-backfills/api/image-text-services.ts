import { apiErrorFrom } from '../../../lib/api-error.ts';
import { readImageText } from '../../../lib/media/read-image-text.ts';
import { supabase } from '../../../lib/supabase-client.ts';
import { fetchDisplayImage, listWorklistPage, type BackfillServices } from './backfill-worklist.ts';

/** The image text backfill: ads whose image_text is null, read with the upload's OCR, stored by admin_set_image_texts. */
export const supabaseImageTextServices: BackfillServices<string> = {
  listPage: (after, limit) => listWorklistPage('admin_ads_without_image_text', after, limit),
  fetchImage: fetchDisplayImage,
  derive: (image) => readImageText(image),
  async save(values) {
    const { error } = await supabase.rpc('admin_set_image_texts', { p_texts: values.map(({ id, value }) => ({ id, text: value })) });
    if (error) throw apiErrorFrom(error);
  },
};
