import type { Attack, AttackTarget } from '../attack.ts';

/** hosted Supabase's statement timeout for anon, the stack's default (STATEMENT_TIMEOUT_ANON_MS). */
const ANON_TIMEOUT_MS = 3_000;
/** What "by its timeout" allows beyond it: the answer's way back. */
const SLACK_MS = 1_000;
/**
 * PGlite runs one statement at a time: a caller queued behind the stopped statement also waits for the engine's
 * reopening on its folder, 1.6 to 3.8 s on this 2-core machine (decision 0024).
 */
const PGLITE_REOPEN_MS = 3_000;
/**
 * PostgreSQL compiles `(.{1,200}){1,200}x` to an automaton and runs it in about a second on the demo library
 * (nesting it once more is refused as "too complex"), so this attack must bring its own slow pattern to run
 * past the timeout. Back references make the engine backtrack: six captures read back in reverse cost
 * about n^6 steps a value, over 1 s for one 40-character value, and every preview path is longer than that.
 * It is 40 characters, well inside the 200 the pattern filters accept.
 */
const SLOW_PATTERN = String.raw`(.*)(.*)(.*)(.*)(.*)(.*)\6\5\4\3\2\1\1`;
const SLOW_COLUMN = 'preview_path';
const OTHER_CALLER_DELAY_MS = 500;

interface Timed {
  status: number;
  code: string | null;
  ms: number;
}

async function timedGet(target: AttackTarget, pathAndQuery: string): Promise<Timed> {
  const started = performance.now();
  const response = await fetch(`${target.url}/rest/v1/${pathAndQuery}`, {
    headers: { apikey: target.anonKey, authorization: `Bearer ${target.anonKey}` },
  });
  const text = await response.text();
  let code: string | null = null;
  if (!response.ok) {
    try {
      code = (JSON.parse(text) as { code?: string }).code ?? null;
    } catch {
      code = text.slice(0, 40);
    }
  }
  return { status: response.status, code, ms: performance.now() - started };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

const attacks: Attack[] = [
  {
    name: 'anonymous regex filter on a listing view, and another caller reads one brand row 0.5 s later',
    before: '500 after 17.9 s; the other caller waited 16.8 s',
    async run(target) {
      const slow = timedGet(target, `ads_with_flags?select=id&${SLOW_COLUMN}=match.${encodeURIComponent(SLOW_PATTERN)}`);
      await new Promise((resolve) => setTimeout(resolve, OTHER_CALLER_DELAY_MS));
      const other = await timedGet(target, 'brands?select=id,name&limit=1');
      const stopped = await slow;
      const slowHeld = stopped.status === 500 && stopped.code === '57014' && stopped.ms <= ANON_TIMEOUT_MS + SLACK_MS;
      const reopen = target.engine === 'pglite' ? PGLITE_REOPEN_MS : 0;
      const otherHeld = other.status === 200 && other.ms <= ANON_TIMEOUT_MS + SLACK_MS + reopen;
      return {
        now: `${stopped.status}${stopped.code ? ` ${stopped.code}` : ''} after ${seconds(stopped.ms)}; the other caller waited ${seconds(other.ms)}`
          + (other.status === 200 ? '' : ` (answered ${other.status})`),
        held: slowHeld && otherHeld,
      };
    },
  },
];

export default attacks;
