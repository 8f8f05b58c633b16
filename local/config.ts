import { z } from 'zod';

/**
 * The local stack's settings, read from the environment once and validated.
 * The defaults are the well-known local development values that Supabase's
 * own CLI uses, so the same .env works against `supabase start` too.
 */
export const LOCAL_JWT_SECRET = 'super-secret-jwt-token-with-at-least-32-characters-long';

const configSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('127.0.0.1'),
  SITE_URL: z.string().url().optional(),
  JWT_SECRET: z.string().min(32, 'JWT_SECRET must be at least 32 characters').default(LOCAL_JWT_SECRET),
  JWT_EXPIRY: z.coerce.number().int().min(60).default(3600),
  DATABASE_URL: z.string().url().optional(),
  DATA_DIR: z.string().default('.data'),
  SMTP_URL: z.string().url().optional(),
  // Realtime caps, after Supabase Realtime's limits (local/realtime/README.md).
  REALTIME_MAX_CHANNELS_PER_CONNECTION: z.coerce.number().int().min(1).max(10_000).default(100),
  REALTIME_MAX_JOINS_PER_SECOND: z.coerce.number().int().min(1).max(10_000).default(100),
  REALTIME_MAX_CONNECTIONS_PER_USER: z.coerce.number().int().min(1).max(100_000).default(50),
  REALTIME_MAX_CONNECTIONS_PER_IP: z.coerce.number().int().min(1).max(100_000).default(200),
  REALTIME_MAX_OUTGOING_BUFFER_BYTES: z.coerce.number().int().min(64 * 1024).max(1024 * 1024 * 1024).default(4 * 1024 * 1024),
});

export type LocalConfig = z.infer<typeof configSchema> & { siteUrl: string; anonKey: string; serviceRoleKey: string };

export function readConfig(env: Record<string, string | undefined> = process.env): z.infer<typeof configSchema> {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`).join('\n');
    throw new Error(`Invalid environment for the local stack:\n${problems}`);
  }
  return parsed.data;
}
