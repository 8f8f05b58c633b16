import http from 'node:http';
import { percentile } from './measure.ts';

export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p95: number;
  p99: number;
}

/**
 * The body of one request: the same text every time, or made per request from
 * the connection's number and how many requests that connection sent before
 * (so a connection can walk through ads, or toggle a write it alone makes).
 */
export type LoadBody = string | ((connection: number, sent: number) => string);

/**
 * A closed-loop load: `connections` keep-alive connections, each sending the
 * next request as soon as the previous answer is read, for `seconds`.
 */
export async function runLoad(options: {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: LoadBody;
  connections: number;
  seconds: number;
}): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
  const target = new URL(options.url);
  const latencies: number[] = [];
  let errors = 0;
  const deadline = performance.now() + options.seconds * 1000;
  const bodyOf = typeof options.body === 'function' ? options.body : () => options.body as string | undefined;
  const once = (body: string | undefined) =>
    new Promise<void>((resolve) => {
      const started = performance.now();
      const request = http.request(
        { host: target.hostname, port: target.port, path: target.pathname + target.search, method: options.method, headers: options.headers, agent },
        (response) => {
          response.resume();
          response.on('end', () => {
            if (response.statusCode && response.statusCode < 400) latencies.push(performance.now() - started);
            else errors += 1;
            resolve();
          });
        },
      );
      request.on('error', () => {
        errors += 1;
        resolve();
      });
      request.end(body);
    });
  const started = performance.now();
  await Promise.all(
    Array.from({ length: options.connections }, async (_, connection) => {
      for (let sent = 0; performance.now() < deadline; sent += 1) await once(bodyOf(connection, sent));
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    requests: latencies.length,
    errors,
    seconds,
    perSecond: latencies.length / seconds,
    p50: percentile(sorted, 0.5),
    p95: percentile(sorted, 0.95),
    p99: percentile(sorted, 0.99),
  };
}
