import { randomBytes } from 'node:crypto';
import { PhoenixSocket } from '../../tests/support/phoenix-socket.ts';
import type { Attack, AttackTarget } from '../attack.ts';

/**
 * The abuses of an address-keyed limit when the stack runs behind the README's proxy: every request reaches it from
 * 127.0.0.1, and who sent it is in X-Forwarded-For, as the proxy appends it (TRUSTED_PROXIES=loopback). The attacker
 * is 203.0.113.x, the people it would lock out are elsewhere.
 */
const ATTACKER = '203.0.113.66';
const through = (client: string) => ({ 'x-forwarded-for': client });
const someone = () => `198.51.100.${1 + Math.floor(Math.random() * 250)}`;

async function authCall(target: AttackTarget, path: string, client: string, body: unknown): Promise<number> {
  const response = await fetch(`${target.url}/auth/v1${path}`, {
    method: 'POST',
    headers: { apikey: target.anonKey, authorization: `Bearer ${target.anonKey}`, 'content-type': 'application/json', ...through(client) },
    body: JSON.stringify(body),
  });
  await response.body?.cancel();
  return response.status;
}

const freshEmail = (label: string) => `proxy-${label}-${randomBytes(4).toString('hex')}@example.test`;

const attacks: Attack[] = [
  {
    name: "through the proxy: 5 wrong passwords for a victim's account from the attacker, then the victim signs in from home",
    before: "every visitor is 127.0.0.1: the victim's right password answered 429",
    env: { TRUSTED_PROXIES: 'loopback' },
    async run(target) {
      const victim = await target.newAccount();
      const wrong: number[] = [];
      for (let guess = 0; guess < 5; guess += 1) wrong.push(await authCall(target, '/token?grant_type=password', ATTACKER, { email: victim.email, password: `guess-${guess}` }));
      const attackerAgain = await authCall(target, '/token?grant_type=password', ATTACKER, { email: victim.email, password: victim.password });
      const victimHome = await authCall(target, '/token?grant_type=password', someone(), { email: victim.email, password: victim.password });
      return {
        now: `wrong guesses ${wrong.join(',')}; the attacker's address then answers ${attackerAgain}; the victim from home ${victimHome}`,
        held: wrong.every((status) => status === 400) && attackerAgain === 429 && victimHome === 200,
      };
    },
  },
  {
    name: 'through the proxy: 31 password resets for made-up emails from the attacker, then a newcomer signs up and another user resets',
    before: "29 resets stopped every visitor's sign-up and reset for 60 minutes",
    env: { TRUSTED_PROXIES: 'loopback' },
    async run(target) {
      const flood: number[] = [];
      for (let i = 0; i < 31; i += 1) flood.push(await authCall(target, '/recover', ATTACKER, { email: freshEmail('made-up') }));
      const signUp = await authCall(target, '/signup', someone(), { email: freshEmail('newcomer'), password: 'a-newcomer-password-1' });
      const member = await target.newAccount();
      const reset = await authCall(target, '/recover', someone(), { email: member.email });
      const refused = flood.filter((status) => status === 429).length;
      return {
        now: `${refused} of the attacker's 31 refused with 429; the newcomer's sign-up ${signUp}; the other user's reset ${reset}`,
        held: refused >= 1 && signUp === 200 && reset === 200,
      };
    },
  },
  {
    name: 'through the proxy: 201 anonymous websockets from the attacker, then a visitor opens one and joins a channel',
    before: "200 sockets made the next visitor's connection close with 1008 ConnectionRateLimitReached",
    env: { TRUSTED_PROXIES: 'loopback' },
    async run(target) {
      const crowd: PhoenixSocket[] = [];
      try {
        for (let i = 0; i < 200; i += 1) crowd.push(await PhoenixSocket.open(target.url, target.anonKey, through(ATTACKER)));
        const extra = await PhoenixSocket.open(target.url, target.anonKey, through(ATTACKER));
        crowd.push(extra);
        const extraClosed = await Promise.race([extra.closed, new Promise<null>((resolve) => setTimeout(() => resolve(null), 2_000))]);
        const visitor = await PhoenixSocket.open(target.url, target.anonKey, through(someone()));
        crowd.push(visitor);
        const joined = await visitor.join(`visitor-${randomBytes(3).toString('hex')}`, target.anonKey);
        const visitorClosed = await Promise.race([visitor.closed, new Promise<null>((resolve) => setTimeout(() => resolve(null), 500))]);
        return {
          now: `the attacker's 201st closed with ${extraClosed ? `${extraClosed.code} ${extraClosed.reason.split(':')[0]}` : 'nothing (still open)'}; the visitor's join ${joined.status}${visitorClosed ? `, then closed ${visitorClosed.code}` : ', still open'}`,
          held: extraClosed?.code === 1008 && joined.status === 'ok' && visitorClosed === null,
        };
      } finally {
        await Promise.all(crowd.map((socket) => socket.close().catch(() => undefined)));
      }
    },
  },
];

export default attacks;
