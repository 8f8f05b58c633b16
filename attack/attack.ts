/**
 * What one abuse of `npm run attack` is: it runs against a local stack started
 * as a process of its own (loopback only), on PostgreSQL or on PGlite, bounded
 * in count and time, and says what it measured and whether the limit held.
 */
export interface AttackAccount {
  userId: string;
  email: string;
  password: string;
  accessToken: string;
}

export interface AttackTarget {
  /** http://127.0.0.1:<port> of the stack under attack. */
  url: string;
  engine: 'postgres' | 'pglite';
  anonKey: string;
  serviceRoleKey: string;
  /** A new confirmed account, signed in (created through the auth admin API). */
  newAccount(): Promise<AttackAccount>;
}

export interface AttackResult {
  /** The figure measured now, in the same terms as `before` (e.g. "400 after 3.0 s; other caller waited 0.1 s"). */
  now: string;
  /** True when the limit held: the abuse was refused or bounded and other callers were not held up. */
  held: boolean;
}

export interface Attack {
  /** One line: what the abuser does. */
  name: string;
  /** The figure measured before the limits existed (the "measured on main"). */
  before: string;
  /** Stacks this attack needs started with extra settings (e.g. a body limit), merged into the stack's environment. */
  env?: Record<string, string>;
  run(target: AttackTarget): Promise<AttackResult>;
}
