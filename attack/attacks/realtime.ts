import { randomBytes } from 'node:crypto';
import { PhoenixSocket, type PhoenixReply } from '../../tests/support/phoenix-socket.ts';
import type { Attack, AttackAccount, AttackTarget } from '../attack.ts';

const JOINS = 3_000;
/** Connections one account tries to hold (the default cap is 50). */
const CROWD = 60;
const CHANNELS_PER_CROWD_SOCKET = 100;
const HONEST_DELAY_BOUND_MS = 1_000;

/** Creates one of the account's boards through rest/v1, as the SPA does. */
async function newBoard(target: AttackTarget, account: AttackAccount, name: string): Promise<void> {
  const response = await fetch(`${target.url}/rest/v1/user_collections`, {
    method: 'POST',
    headers: {
      apikey: target.anonKey,
      authorization: `Bearer ${account.accessToken}`,
      'content-type': 'application/json',
      prefer: 'return=minimal',
    },
    body: JSON.stringify({ name, is_system: false, user_id: account.userId }),
  });
  if (!response.ok) throw new Error(`Creating a board answered ${response.status}: ${await response.text()}`);
}

/** Milliseconds from sending the honest account's new board to its event reaching the honest socket (null: not within 20 s). */
async function eventDelay(target: AttackTarget, honest: AttackAccount, socket: PhoenixSocket): Promise<number | null> {
  const name = `Honest ${randomBytes(4).toString('hex')}`;
  const started = performance.now();
  const arrived = socket.next((message) => {
    const data = (message.payload as { data?: { record?: { name?: string } } }).data;
    return message.event === 'postgres_changes' && data?.record?.name === name;
  }, 20_000);
  await newBoard(target, honest, name);
  return (await arrived) ? performance.now() - started : null;
}

const tally = (replies: PhoenixReply[]) => {
  const counts = new Map<string, number>();
  for (const reply of replies) {
    const key = reply.status === 'ok' ? 'ok' : String(reply.response.code ?? reply.response.reason ?? 'error');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
};

const seconds = (ms: number | null) => (ms === null ? 'never (20 s)' : `${(ms / 1000).toFixed(2)} s`);

const attacks: Attack[] = [
  {
    name: `One socket joins ${JOINS.toLocaleString('en')} realtime channels, another account opens ${CROWD} sockets of ${CHANNELS_PER_CROWD_SOCKET} channels; an honest client's event is timed`,
    before: `one socket joined 3,000 channels; every other client's events delayed by more than 36 s`,
    async run(target) {
      const [honest, abuser, accomplice] = await Promise.all([target.newAccount(), target.newAccount(), target.newAccount()]);
      const sockets: PhoenixSocket[] = [];
      const open = async () => {
        const socket = await PhoenixSocket.open(target.url, target.anonKey);
        sockets.push(socket);
        return socket;
      };
      try {
        const watcher = await open();
        if ((await watcher.join('honest-boards', honest.accessToken)).status !== 'ok') throw new Error('The honest client could not join');
        // The first change read on a fresh stack pays for warming caches: time the second.
        await eventDelay(target, honest, watcher);
        const quiet = await eventDelay(target, honest, watcher);

        // The hog: every join sent at once, as fast as the socket takes them, then again in waves for two seconds.
        const hog = await open();
        const replies = new Map<number, PhoenixReply>();
        const joinWave = (indexes: number[]) =>
          Promise.all(indexes.map(async (index) => replies.set(index, await hog.join(`hog-${index}`, abuser.accessToken))));
        await joinWave(Array.from({ length: JOINS }, (_, index) => index));
        for (let wave = 0; wave < 2; wave += 1) {
          await new Promise((resolve) => setTimeout(resolve, 1_000));
          await joinWave([...replies].filter(([, reply]) => reply.status !== 'ok').map(([index]) => index).slice(0, 500));
        }
        const hogCounts = tally([...replies.values()]);
        const hogChannels = hogCounts.get('ok') ?? 0;

        // The crowd: one account's sockets, each joining as many channels as a socket may.
        let admitted = 0;
        for (let index = 0; index < CROWD; index += 1) {
          const socket = await open();
          const joined = await Promise.all(
            Array.from({ length: CHANNELS_PER_CROWD_SOCKET }, (_, channel) => socket.join(`crowd-${index}-${channel}`, accomplice.accessToken)),
          );
          if (joined.some((reply) => reply.status === 'ok')) admitted += 1;
        }

        // The abuser's own writes put their reads ahead of the honest client's change.
        for (let index = 0; index < 10; index += 1) await newBoard(target, abuser, `Noise ${index}`);
        const abused = await eventDelay(target, honest, watcher);

        const refusedHog = [...hogCounts].filter(([key]) => key !== 'ok').map(([key, count]) => `${count.toLocaleString('en')} ${key}`).join(', ');
        const held = hogChannels <= 100 && admitted < CROWD && abused !== null && abused < HONEST_DELAY_BOUND_MS;
        return {
          now:
            `one socket holds ${hogChannels} of ${JOINS.toLocaleString('en')} channels (refused: ${refusedHog || 'none'}); ` +
            `${admitted} of ${CROWD} sockets of one account admitted; ` +
            `honest client's event after ${seconds(abused)} (${seconds(quiet)} with no abuse)`,
          held,
        };
      } finally {
        await Promise.all(sockets.map((socket) => socket.close()));
      }
    },
  },
];

export default attacks;
