import { env } from './env.ts';
import { supabase } from './supabase-client.ts';

const storageUrl = `${env.supabaseUrl.replace(/\/+$/, '')}/storage/v1`;

/** The address of an ad image link the server signed ("object/sign/ad-images/...?token=..."). */
export function adImageUrl(signedLink: string): string {
  return `${storageUrl}/${signedLink}`;
}

/** Public URL of a brand logo (public bucket brand-logos). */
export function brandLogoUrl(path: string): string {
  return supabase.storage.from('brand-logos').getPublicUrl(path).data.publicUrl;
}
