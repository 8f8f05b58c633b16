import { z } from 'npm:zod@4';

/** The environment Supabase gives every function (and the local stack gives them too). */
const envSchema = z.object({
  SUPABASE_URL: z.string().url(),
  SUPABASE_ANON_KEY: z.string().min(1),
  SUPABASE_SERVICE_ROLE_KEY: z.string().min(1),
});

export type SupabaseEnv = z.infer<typeof envSchema>;

export function readSupabaseEnv(): SupabaseEnv {
  const parsed = envSchema.safeParse(Deno.env.toObject());
  if (!parsed.success) throw new Error(`Function environment is incomplete: ${parsed.error.issues.map((issue) => issue.path.join('.')).join(', ')}`);
  return parsed.data;
}
