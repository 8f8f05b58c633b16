/**
 * The caps of realtime/v1, modelled on Supabase Realtime's own (its "Realtime
 * Limits" page and its channel's join checks): channels per connection, joins
 * per second, connections per user and per address. Over a cap a join is
 * refused with Supabase's reason and operational code; a connection over the
 * per-address cap is closed with a policy-violation close code.
 */
export interface RealtimeLimits {
  channelsPerConnection: number;
  joinsPerSecond: number;
  connectionsPerUser: number;
  connectionsPerIp: number;
  /** Bytes a socket may have waiting to go out before its client counts as too slow and is closed. */
  outgoingBufferBytes: number;
}

/** A refused join: the reply's `response`, as Supabase Realtime words it, with its operational error code. */
export interface JoinRefusal {
  reason: string;
  code: string;
}

export const refusals = {
  tooManyChannels: (max: number): JoinRefusal => ({ reason: `Too many channels: at most ${max} per connection`, code: 'ChannelRateLimitReached' }),
  tooManyJoins: (max: number): JoinRefusal => ({ reason: `Too many joins per second: at most ${max} per connection`, code: 'ClientJoinRateLimitReached' }),
  tooManyUserConnections: (max: number): JoinRefusal => ({
    reason: `Too many connected users: at most ${max} connections per user`,
    code: 'ConnectionRateLimitReached',
  }),
};

/** WebSocket close codes (RFC 6455): 1008 a policy was violated, 1013 try again later. */
export const closes = {
  tooManyIpConnections: (max: number) => ({ code: 1008, reason: `ConnectionRateLimitReached: at most ${max} connections per address` }),
  slowConsumer: () => ({ code: 1013, reason: 'SlowConsumer: the client reads its events too slowly' }),
  fallingBehind: () => ({ code: 1013, reason: 'SlowConsumer: too many changes waiting for this connection' }),
};

/**
 * A token bucket: `perSecond` joins at once, refilled at `perSecond` a second.
 * Every attempt takes a token, refused or not, as Supabase counts joins.
 */
export class JoinRate {
  private tokens: number;
  private last: number;

  constructor(
    private readonly perSecond: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.tokens = perSecond;
    this.last = this.now();
  }

  take(): boolean {
    const now = this.now();
    this.tokens = Math.min(this.perSecond, this.tokens + ((now - this.last) / 1000) * this.perSecond);
    this.last = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

/** How many open connections each key (a user's sub, an address) holds. */
export class ConnectionCounts<C> {
  private readonly holders = new Map<string, Set<C>>();

  count(key: string): number {
    return this.holders.get(key)?.size ?? 0;
  }

  has(key: string, connection: C): boolean {
    return this.holders.get(key)?.has(connection) ?? false;
  }

  add(key: string, connection: C): void {
    let set = this.holders.get(key);
    if (!set) {
      set = new Set();
      this.holders.set(key, set);
    }
    set.add(connection);
  }

  remove(key: string, connection: C): void {
    const set = this.holders.get(key);
    if (!set) return;
    set.delete(connection);
    if (set.size === 0) this.holders.delete(key);
  }
}
