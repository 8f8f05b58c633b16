import { supabase } from './supabase-client.ts';

/** Public URL of an ad's display variant or blurred preview (public bucket ad-images). */
export function adImageUrl(path: string): string {
  return supabase.storage.from('ad-images').getPublicUrl(path).data.publicUrl;
}

/** Public URL of a brand logo (public bucket brand-logos). */
export function brandLogoUrl(path: string): string {
  return supabase.storage.from('brand-logos').getPublicUrl(path).data.publicUrl;
}
