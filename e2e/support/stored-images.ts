import { createClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import type { LocalStack } from '../../local/stack.ts';

/**
 * A link to one stored object that works for `expiresIn` seconds, signed by
 * Storage for the stack's service role: the ad-images bucket is private, so
 * its files have no public URL to fetch (docs/decisions/0020).
 */
export async function signedObjectUrl(stack: LocalStack, bucket: string, path: string, expiresIn = 60): Promise<string> {
  const admin = createClient(stack.url, stack.config.serviceRoleKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    // Node 20 has no global WebSocket; the client builds its realtime part even when unused.
    realtime: { transport: WebSocket as never },
  });
  const { data, error } = await admin.storage.from(bucket).createSignedUrl(path, expiresIn);
  if (error) throw new Error(`No signed link to ${bucket}/${path}: ${error.message}`);
  return data.signedUrl;
}

/** Where a public bucket's file would be served: the private ad-images bucket answers 404 there. */
export const publicObjectUrl = (stack: LocalStack, bucket: string, path: string) => `${stack.url}/storage/v1/object/public/${bucket}/${path}`;
