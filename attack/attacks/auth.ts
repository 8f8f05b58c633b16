import { randomBytes } from 'node:crypto';
import type { Attack, AttackTarget } from '../attack.ts';

interface Answer {
  status: number;
  body: unknown;
}

async function auth(target: AttackTarget, path: string, init: { method?: string; body?: unknown; token?: string } = {}): Promise<Answer> {
  const response = await fetch(`${target.url}/auth/v1${path}`, {
    method: init.method ?? 'POST',
    headers: {
      apikey: target.anonKey,
      authorization: `Bearer ${init.token ?? target.anonKey}`,
      'content-type': 'application/json',
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as unknown) : null };
}

const freshEmail = (label: string) => `attack-${label}-${randomBytes(4).toString('hex')}@example.test`;
const codeOf = (answer: Answer) => (answer.body as { code?: string } | null)?.code ?? '';

/** The JSON's shape: values replaced by their types, so two answers compare without ids and times. */
function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shapeOf);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b)).map(([key, inner]) => [key, shapeOf(inner)]));
  }
  return typeof value;
}

const sameAnswer = (a: Answer, b: Answer) => a.status === b.status && JSON.stringify(shapeOf(a.body)) === JSON.stringify(shapeOf(b.body));

const attacks: Attack[] = [
  {
    name: '100 failed sign-ins from one IP (4 guesses on each of 25 emails), then another user signs in correctly from it',
    before: 'the whole IP locked out',
    async run(target) {
      const colleague = await target.newAccount();
      const victim = await target.newAccount();
      const emails = [victim.email, ...Array.from({ length: 24 }, () => freshEmail('guess'))];
      const statuses: number[] = [];
      for (const email of emails) {
        for (let guess = 0; guess < 4; guess += 1) {
          statuses.push((await auth(target, '/token?grant_type=password', { body: { email, password: `guess-${guess}` } })).status);
        }
      }
      const signIn = await auth(target, '/token?grant_type=password', { body: { email: colleague.email, password: colleague.password } });
      // The attacked account backs off after its fifth failure: the sixth try, right password or not, waits.
      await auth(target, '/token?grant_type=password', { body: { email: victim.email, password: 'guess-5' } });
      const backedOff = await auth(target, '/token?grant_type=password', { body: { email: victim.email, password: victim.password } });
      const failures = statuses.filter((status) => status === 400).length;
      return {
        now: `${failures} of 100 refused as wrong; the other user signed in with ${signIn.status}; the attacked account answers ${backedOff.status}`,
        held: failures === 100 && signIn.status === 200 && backedOff.status === 429,
      };
    },
  },
  {
    name: 'sign-up, OTP (magic link), recovery and email change with a known vs an unknown email',
    before: 'answers differed',
    async run(target) {
      // A known account per request: each address gets one email a minute.
      const [forSignUp, forOtp, forRecovery, forChange] = [await target.newAccount(), await target.newAccount(), await target.newAccount(), await target.newAccount()];
      const mover = await target.newAccount();
      const pairs: Array<[string, Answer, Answer]> = [
        ['sign-up', await auth(target, '/signup', { body: { email: forSignUp.email, password: 'attack-pass-1' } }), await auth(target, '/signup', { body: { email: freshEmail('new'), password: 'attack-pass-1' } })],
        ['OTP', await auth(target, '/otp', { body: { email: forOtp.email, create_user: false } }), await auth(target, '/otp', { body: { email: freshEmail('otp'), create_user: false } })],
        ['recovery', await auth(target, '/recover', { body: { email: forRecovery.email } }), await auth(target, '/recover', { body: { email: freshEmail('recover') } })],
        [
          'email change',
          await auth(target, '/user', { method: 'PUT', token: mover.accessToken, body: { email: forChange.email, current_password: mover.password } }),
          await auth(target, '/user', { method: 'PUT', token: mover.accessToken, body: { email: freshEmail('move'), current_password: mover.password } }),
        ],
      ];
      const differing = pairs.filter(([, known, unknown]) => !sameAnswer(known, unknown));
      return {
        now: differing.length === 0
          ? `identical: ${pairs.map(([name, known]) => `${name} ${known.status}`).join(', ')}`
          : `differed: ${differing.map(([name, known, unknown]) => `${name} ${known.status} vs ${unknown.status}`).join(', ')}`,
        held: differing.length === 0,
      };
    },
  },
  {
    name: 'password change with a signed-in session but without the current password',
    before: 'accepted',
    async run(target) {
      const account = await target.newAccount();
      const change = await auth(target, '/user', { method: 'PUT', token: account.accessToken, body: { password: 'taken-over-pass' } });
      const oldStillWorks = await auth(target, '/token?grant_type=password', { body: { email: account.email, password: account.password } });
      return {
        now: `${change.status} ${codeOf(change)}; the old password still signs in (${oldStillWorks.status})`,
        held: change.status === 400 && codeOf(change) === 'current_password_required' && oldStillWorks.status === 200,
      };
    },
  },
  {
    name: 'mixed-script look-alike email sign-up (a Cyrillic а in "pаypal")',
    before: 'accepted',
    async run(target) {
      const lookalike = `p\u0430ypal-${randomBytes(3).toString('hex')}@example.com`;
      const signUp = await auth(target, '/signup', { body: { email: lookalike, password: 'attack-pass-1' } });
      return {
        now: `${signUp.status} ${codeOf(signUp)}`,
        held: signUp.status === 400 && codeOf(signUp) === 'email_address_invalid',
      };
    },
  },
];

export default attacks;
