import type { AccessClaims } from '../auth/jwt.ts';
import type { LocalConfig } from '../config.ts';
import type { Database } from '../db/database.ts';

/** Everything one of the local APIs needs; each API is a function from Request to Response. */
export interface ApiContext {
  db: Database;
  config: LocalConfig;
}

export type ApiHandler = (request: Request) => Promise<Response>;

export type CallerClaims = AccessClaims;
