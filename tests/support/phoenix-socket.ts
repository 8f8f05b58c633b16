import WebSocket from 'ws';

/** A server message of the Phoenix protocol 2.0.0 ([join_ref, ref, topic, event, payload]). */
export interface PhoenixMessage {
  joinRef: string | null;
  ref: string | null;
  topic: string;
  event: string;
  payload: Record<string, unknown>;
}

export interface PhoenixReply {
  status: 'ok' | 'error';
  response: Record<string, unknown>;
}

export interface CloseFrame {
  code: number;
  reason: string;
}

/**
 * A bare realtime/v1 socket, as an abuser would write one: no client library,
 * joins sent as fast as the socket takes them. Tests and `npm run attack` use it.
 */
export class PhoenixSocket {
  readonly messages: PhoenixMessage[] = [];
  readonly closed: Promise<CloseFrame>;
  private nextRef = 1;
  private readonly waiting = new Map<string, (reply: PhoenixReply) => void>();
  private readonly listeners = new Set<(message: PhoenixMessage) => void>();

  private constructor(private readonly ws: WebSocket) {
    this.closed = new Promise((resolve) => ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
    ws.on('message', (data) => {
      const [joinRef, ref, topic, event, payload] = JSON.parse(data.toString()) as [string | null, string | null, string, string, Record<string, unknown>];
      const message = { joinRef, ref, topic, event, payload };
      if (event === 'phx_reply' && ref !== null) {
        this.waiting.get(ref)?.(payload as unknown as PhoenixReply);
        this.waiting.delete(ref);
        return;
      }
      this.messages.push(message);
      for (const listener of this.listeners) listener(message);
    });
  }

  /**
   * Opens a socket on the stack at `baseUrl` (http://host:port); resolves once open, or with how the server closed it.
   * `headers` go with the upgrade request (a proxy's X-Forwarded-For).
   */
  static open(baseUrl: string, apiKey: string, headers: Record<string, string> = {}): Promise<PhoenixSocket> {
    const url = `${baseUrl.replace(/^http/, 'ws')}/realtime/v1/websocket?apikey=${encodeURIComponent(apiKey)}&vsn=2.0.0`;
    const ws = new WebSocket(url, { headers });
    const socket = new PhoenixSocket(ws);
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(socket));
      ws.once('error', reject);
    });
  }

  get isOpen(): boolean {
    return this.ws.readyState === WebSocket.OPEN;
  }

  private push(topic: string, event: string, payload: Record<string, unknown>, joinRef: string | null = null): Promise<PhoenixReply> {
    const ref = String(this.nextRef++);
    const reply = new Promise<PhoenixReply>((resolve) => this.waiting.set(ref, resolve));
    this.ws.send(JSON.stringify([joinRef ?? ref, ref, topic, event, payload]));
    return reply;
  }

  /** Joins `realtime:<name>` for every change of a table, as the holder of `token`. */
  join(name: string, token: string, table = 'user_collections'): Promise<PhoenixReply> {
    return this.push(`realtime:${name}`, 'phx_join', {
      access_token: token,
      config: { postgres_changes: [{ event: '*', schema: 'public', table }] },
    });
  }

  leave(name: string): Promise<PhoenixReply> {
    return this.push(`realtime:${name}`, 'phx_leave', {});
  }

  /** Resolves with the first message that matches, or null after timeoutMs. */
  next(match: (message: PhoenixMessage) => boolean, timeoutMs: number): Promise<PhoenixMessage | null> {
    const seen = this.messages.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => {
      const listener = (message: PhoenixMessage) => {
        if (!match(message)) return;
        clearTimeout(timer);
        this.listeners.delete(listener);
        resolve(message);
      };
      const timer = setTimeout(() => {
        this.listeners.delete(listener);
        resolve(null);
      }, timeoutMs);
      this.listeners.add(listener);
    });
  }

  /** Stops reading from the network (a client too slow for its events) until resumeReading. */
  pauseReading(): void {
    (this.ws as unknown as { _socket: { pause(): void } })._socket.pause();
  }

  resumeReading(): void {
    (this.ws as unknown as { _socket: { resume(): void } })._socket.resume();
  }

  async close(): Promise<void> {
    if (this.ws.readyState === WebSocket.CLOSED) return;
    this.ws.close();
    await this.closed;
  }
}
