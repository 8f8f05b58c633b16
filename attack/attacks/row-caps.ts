import { randomUUID } from 'node:crypto';
import type { Attack, AttackAccount, AttackTarget } from '../attack.ts';

const BOARDS = 100_000;
const CHAIN = 50;
/** The caps of decision record 0022. */
const BOARDS_MAX = 500;
const DEPTH_MAX = 5;
/** rest/v1's default body limit (MAX_REQUEST_BODY_BYTES). */
const BODY_LIMIT_BYTES = 1024 * 1024;
/** How much longer than on a quiet stack another caller's read may take while the abuse runs. */
const OTHER_CALLER_BOUND_MS = 1_000;

interface Answer {
  status: number;
  code: string | null;
  ms: number;
}

function headers(target: AttackTarget, account: AttackAccount): Record<string, string> {
  return {
    apikey: target.anonKey,
    authorization: `Bearer ${account.accessToken}`,
    'content-type': 'application/json',
    prefer: 'return=minimal',
  };
}

/** One POST of board rows to user_collections; the stable code of a refusal (detail, else SQLSTATE). */
async function postBoards(target: AttackTarget, account: AttackAccount, body: string): Promise<Answer> {
  const started = performance.now();
  const response = await fetch(`${target.url}/rest/v1/user_collections`, { method: 'POST', headers: headers(target, account), body });
  const text = await response.text();
  let code: string | null = null;
  if (!response.ok) {
    try {
      const error = JSON.parse(text) as { code?: string; details?: string };
      code = error.details && /^[a-z_]+$/.test(error.details) ? error.details : (error.code ?? null);
    } catch {
      code = text.slice(0, 60);
    }
  }
  return { status: response.status, code, ms: performance.now() - started };
}

async function boardCount(target: AttackTarget, account: AttackAccount): Promise<number> {
  const response = await fetch(`${target.url}/rest/v1/user_collections?select=id&is_system=eq.false`, { headers: headers(target, account) });
  if (!response.ok) throw new Error(`Reading the boards answered ${response.status}`);
  return ((await response.json()) as unknown[]).length;
}

/** Milliseconds for another account's read of its own boards (through the database, never a cache). */
async function otherRead(target: AttackTarget, other: AttackAccount): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${target.url}/rest/v1/user_collections?select=id,name&limit=1`, { headers: headers(target, other) });
  await response.text();
  if (!response.ok) throw new Error(`The other caller's read answered ${response.status}`);
  return performance.now() - started;
}

/** The body of n boards with the shortest rows, and the largest n whose body fits under the limit. */
const boardsBody = (n: number) => `[${Array.from({ length: n }, () => '{"name":"x"}').join(',')}]`;
const largestUnderLimit = () => Math.floor((BODY_LIMIT_BYTES - 2 + 1) / '{"name":"x"},'.length);

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MB`;

/** Sends a bulk POST and, 50 ms later, another caller's read; both timed. */
async function bulkWithOtherRead(target: AttackTarget, abuser: AttackAccount, other: AttackAccount, body: string) {
  const bulk = postBoards(target, abuser, body);
  await new Promise((resolve) => setTimeout(resolve, 50));
  const read = await otherRead(target, other);
  return { bulk: await bulk, read };
}

const attacks: Attack[] = [
  {
    name: `A free account inserts ${BOARDS.toLocaleString('en')} boards in one POST /rest/v1/user_collections (and the most that fit under the 1 MB body limit); another caller's read is timed`,
    before: '100,000 boards inserted in one request, others stalled 6 s',
    async run(target) {
      const [abuser, other] = await Promise.all([target.newAccount(), target.newAccount()]);
      // The quiet figure: the slowest of three reads before the abuse, as the machine may be busy with other work.
      const quiet = Math.max(await otherRead(target, other), await otherRead(target, other), await otherRead(target, other));

      const full = boardsBody(BOARDS);
      const whole = await bulkWithOtherRead(target, abuser, other, full);
      // 100,000 rows do not fit the default body limit: the most that do are sent too.
      const fitting = largestUnderLimit();
      const fits = boardsBody(fitting);
      const under = await bulkWithOtherRead(target, abuser, other, fits);
      // What an honest user may do at once: fill the cap in one request, then one more is refused.
      const atCap = await postBoards(target, abuser, boardsBody(BOARDS_MAX));
      const oneMore = await postBoards(target, abuser, boardsBody(1));
      const stored = await boardCount(target, abuser);

      const refused = (answer: Answer) => answer.status === 413 || (answer.status === 400 && answer.code === 'board_limit_reached');
      const held =
        refused(whole.bulk) &&
        under.bulk.status === 400 && under.bulk.code === 'board_limit_reached' &&
        atCap.status === 201 && oneMore.code === 'board_limit_reached' && stored === BOARDS_MAX &&
        Math.max(whole.read, under.read) - quiet <= OTHER_CALLER_BOUND_MS;
      return {
        held,
        now:
          `${BOARDS.toLocaleString('en')} rows (${megabytes(full.length)}): ${whole.bulk.status} ${whole.bulk.code ?? ''} after ${seconds(whole.bulk.ms)}, ` +
          `other read ${seconds(whole.read)}; ${fitting.toLocaleString('en')} rows (${megabytes(fits.length)}): ${under.bulk.status} ${under.bulk.code ?? ''} ` +
          `after ${seconds(under.bulk.ms)}, other read ${seconds(under.read)} (quiet ${seconds(quiet)}); none inserted; ` +
          `${BOARDS_MAX} in one request ${atCap.status}, the next ${oneMore.status} ${oneMore.code ?? ''}; ${stored} stored`,
      };
    },
  },
  {
    name: `A free account nests boards ${CHAIN} deep: one request at a time, and as one POST of a ${CHAIN}-board chain`,
    before: 'nesting unlimited',
    async run(target) {
      const abuser = await target.newAccount();
      // One request per level, each board under the one before, until refused.
      let parent: string | null = null;
      let depth = 0;
      let refusal: Answer | null = null;
      for (let level = 1; level <= CHAIN; level += 1) {
        const id = randomUUID();
        const answer = await postBoards(target, abuser, JSON.stringify({ id, name: `Level ${level}`, parent_id: parent }));
        if (answer.status !== 201) {
          refusal = answer;
          break;
        }
        depth = level;
        parent = id;
      }
      // The whole chain in one request, on top of nothing.
      const ids = Array.from({ length: CHAIN }, () => randomUUID());
      const before = await boardCount(target, abuser);
      const chain = await postBoards(
        target,
        abuser,
        JSON.stringify(ids.map((id, index) => ({ id, name: `Chain ${index + 1}`, parent_id: index === 0 ? null : ids[index - 1] }))),
      );
      const after = await boardCount(target, abuser);
      const held =
        depth === DEPTH_MAX && refusal?.code === 'board_depth_limit_reached' &&
        chain.status === 400 && chain.code === 'board_depth_limit_reached' && after === before;
      return {
        held,
        now:
          `one at a time: ${depth} levels, level ${depth + 1} ${refusal ? `${refusal.status} ${refusal.code}` : 'accepted'}; ` +
          `one POST of ${CHAIN}: ${chain.status} ${chain.code ?? ''}, ${after - before} inserted`,
      };
    },
  },
];

export default attacks;
