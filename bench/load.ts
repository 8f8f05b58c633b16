import net from 'node:net';
import { percentile } from './measure.ts';

export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p95: number;
  p99: number;
  /** CPU the load generator itself used per answered request (ms): on a machine it shares, the server did not get it. */
  generatorCpu: number | null;
}

/**
 * The body of one request: the same text every time, or made per request from
 * the connection's number and how many requests that connection sent before
 * (so a connection can walk through ads, or toggle a write it alone makes).
 */
export type LoadBody = string | ((connection: number, sent: number) => string);

export interface LoadOptions {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: LoadBody;
  connections: number;
  seconds: number;
}

/**
 * A closed-loop load: `connections` keep-alive connections, each sending the
 * next request as soon as the previous answer is read, for `seconds`.
 *
 * Each connection is a plain socket that writes the request's bytes and reads
 * the answer with the least parsing HTTP/1.1 allows (status line, then the
 * body by Content-Length or chunks), as autocannon and wrk do: on a machine
 * whose cores the server shares with the generator, Node's HTTP client would
 * spend more CPU per request than the server's own routing does. What the
 * generator still uses is measured and reported (`generatorCpu`).
 */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const target = new URL(options.url);
  const port = Number(target.port || 80);
  const head = requestHead(options, target);
  const bodyOf = typeof options.body === 'function' ? options.body : () => options.body as string | undefined;
  const latencies: number[] = [];
  let errors = 0;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const deadline = started + options.seconds * 1000;
  await Promise.all(
    Array.from({ length: options.connections }, (_, connection) =>
      runConnection(target.hostname, port, head, (sent) => bodyOf(connection, sent), deadline, (ms, ok) => {
        if (ok) latencies.push(ms);
        else errors += 1;
      })),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    errors,
    seconds,
    perSecond: latencies.length / seconds,
    p50: percentile(latencies, 0.5),
    p95: percentile(latencies, 0.95),
    p99: percentile(latencies, 0.99),
    generatorCpu: latencies.length === 0 ? null : (cpu.user + cpu.system) / 1000 / latencies.length,
  };
}

/** The request line and headers, without Content-Length (which depends on the body). */
function requestHead(options: LoadOptions, target: URL): string {
  let head = `${options.method} ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\nConnection: keep-alive\r\n`;
  for (const [name, value] of Object.entries(options.headers)) {
    if (/[\r\n]/.test(name + value)) throw new Error(`The header ${name} holds a line break`);
    head += `${name}: ${value}\r\n`;
  }
  return head;
}

function requestBytes(head: string, body: string | undefined): Buffer {
  if (body === undefined) return Buffer.from(`${head}\r\n`, 'latin1');
  const bytes = Buffer.from(body, 'utf8');
  return Buffer.concat([Buffer.from(`${head}Content-Length: ${bytes.byteLength}\r\n\r\n`, 'latin1'), bytes]);
}

/**
 * One connection's loop until the deadline. A connection the server closes (or
 * that fails) counts its request as an error and is opened again.
 */
function runConnection(
  host: string,
  port: number,
  head: string,
  bodyOf: (sent: number) => string | undefined,
  deadline: number,
  record: (ms: number, ok: boolean) => void,
): Promise<void> {
  return new Promise((resolve) => {
    let sent = 0;
    let socket: net.Socket;
    let reader: AnswerReader;
    let requestStarted = 0;
    let waiting = false;
    let finished = false;

    const finish = () => {
      if (finished) return;
      finished = true;
      socket.destroy();
      resolve();
    };
    const sendNext = () => {
      if (performance.now() >= deadline) {
        finish();
        return;
      }
      reader = new AnswerReader();
      waiting = true;
      requestStarted = performance.now();
      socket.write(requestBytes(head, bodyOf(sent)));
      sent += 1;
    };
    const open = () => {
      const current = net.connect({ host, port, noDelay: true });
      socket = current;
      // Events of a socket given up (closed after its answer) no longer concern the loop.
      current.on('connect', () => {
        if (socket === current) sendNext();
      });
      current.on('data', (chunk: Buffer) => {
        if (socket !== current || !waiting) return;
        const answer = reader.push(chunk);
        if (answer === null) return;
        waiting = false;
        record(performance.now() - requestStarted, answer.status < 400);
        if (answer.close) {
          socket.destroy();
          if (!finished) open();
          return;
        }
        sendNext();
      });
      current.on('error', () => {});
      current.on('close', () => {
        if (finished || socket !== current) return;
        if (waiting) {
          waiting = false;
          record(performance.now() - requestStarted, false);
        }
        if (performance.now() >= deadline) finish();
        else setTimeout(open, 10);
      });
    };
    open();
  });
}

interface Answer {
  status: number;
  /** The server closes the connection after this answer. */
  close: boolean;
}

/** Reads one HTTP/1.1 answer from the bytes as they arrive; push returns it once whole. */
class AnswerReader {
  private buffered: Buffer | null = null;
  private status = 0;
  private close = false;
  /** Body bytes still to come (Content-Length), or -1 for chunks, or null before the head is read. */
  private remaining: number | null = null;

  push(chunk: Buffer): Answer | null {
    let data = this.buffered ? Buffer.concat([this.buffered, chunk]) : chunk;
    this.buffered = null;
    if (this.remaining === null) {
      const end = data.indexOf('\r\n\r\n');
      if (end === -1) {
        this.buffered = data;
        return null;
      }
      const headText = data.toString('latin1', 0, end);
      this.status = Number(headText.slice(9, 12));
      const lower = headText.toLowerCase();
      this.close = /\r\nconnection:\s*close/.test(lower);
      const length = /\r\ncontent-length:\s*(\d+)/.exec(lower);
      const bodyless = this.status === 204 || this.status === 304 || (this.status >= 100 && this.status < 200);
      this.remaining = bodyless ? 0 : /\r\ntransfer-encoding:\s*chunked/.test(lower) ? -1 : length ? Number(length[1]) : 0;
      data = data.subarray(end + 4);
    }
    if (this.remaining >= 0) {
      this.remaining -= data.byteLength;
      return this.remaining <= 0 ? { status: this.status, close: this.close } : null;
    }
    // Chunked: complete once the last (zero-size) chunk and the blank line after it have arrived.
    this.buffered = data;
    return chunkedBodyComplete(data) ? { status: this.status, close: this.close } : null;
  }
}

function chunkedBodyComplete(data: Buffer): boolean {
  let at = 0;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', at);
    if (lineEnd === -1) return false;
    const size = parseInt(data.toString('latin1', at, lineEnd), 16);
    if (Number.isNaN(size)) throw new Error('The server sent a broken chunk');
    // The last chunk, then trailers if any, then a blank line.
    if (size === 0) return data.indexOf('\r\n\r\n', lineEnd) !== -1;
    at = lineEnd + 2 + size + 2;
    if (at > data.byteLength) return false;
  }
}
