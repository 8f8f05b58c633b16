import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEMO_ACCOUNTS } from '../../local/seed/demo-accounts.ts';
import { rawRequest, type RawAnswer } from '../../tests/support/raw-request.ts';
import type { Attack, AttackTarget } from '../attack.ts';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const admin = DEMO_ACCOUNTS.find((account) => account.role === 'admin')!;

/** True when the answer hands out an email's action link (the recovery link of an account). */
const leaksLinks = (answer: RawAnswer) => /\/auth\/v1\/verify\?/.test(answer.body);

/** A source map a build would have left next to the SPA's scripts (or a made-up one when dist/ is not built). */
async function sourceMapPath(): Promise<string> {
  const scripts = await readdir(path.join(projectRoot, 'dist', 'assets')).catch(() => [] as string[]);
  const script = scripts.find((name) => name.endsWith('.js'));
  return `/assets/${script ?? 'index.js'}.map`;
}

const directive = (policy: string | undefined, name: string) =>
  (policy ?? '').split(';').map((part) => part.trim()).find((part) => part.split(/\s+/)[0] === name);

/** What is missing from one answer's protective headers. */
function missingHeaders(answer: RawAnswer): string[] {
  const policy = answer.headers['content-security-policy'] as string | undefined;
  const missing: string[] = [];
  if (!policy) missing.push('CSP');
  if (directive(policy, 'frame-ancestors') !== "frame-ancestors 'none'") missing.push('frame-ancestors');
  if (answer.headers['x-frame-options'] !== 'DENY') missing.push('X-Frame-Options');
  if (answer.headers['x-content-type-options'] !== 'nosniff') missing.push('nosniff');
  if (!answer.headers['referrer-policy']) missing.push('Referrer-Policy');
  return missing;
}

export default [
  {
    name: 'DNS rebinding: a page on attacker.example reads /_mailbox.json (the admin just asked for a recovery link)',
    before: 'answered 200 with every email, recovery links included',
    async run(target: AttackTarget) {
      const recover = await fetch(`${target.url}/auth/v1/recover`, {
        method: 'POST',
        headers: { apikey: target.anonKey, 'content-type': 'application/json' },
        body: JSON.stringify({ email: admin.email }),
      });
      const port = new URL(target.url).port;
      const rebound = await rawRequest(`${target.url}/_mailbox.json`, { host: `attacker.example:${port}` });
      const framed = await rawRequest(`${target.url}/_mailbox`, { host: 'attacker.example' });
      const crossOrigin = await rawRequest(`${target.url}/_mailbox.json`, { headers: { origin: 'http://attacker.example' } });
      // The developer on this machine still reads it.
      const loopback = await rawRequest(`${target.url}/_mailbox.json`);
      const leaked = [rebound, framed, crossOrigin].some(leaksLinks);
      return {
        now:
          `Host attacker.example: ${rebound.status} (page ${framed.status}); Origin attacker.example: ${crossOrigin.status}; ` +
          `${leaked ? 'recovery link LEAKED' : 'no email shown'}; on loopback ${loopback.status}${leaksLinks(loopback) ? ' with the link' : ''} (recover ${recover.status})`,
        held: !leaked && [rebound, framed].every((answer) => answer.status === 421) && crossOrigin.status === 403,
      };
    },
  },
  {
    name: 'Cross-origin framing and sniffing: the SPA and the APIs without protective headers; source maps fetched',
    before: 'no CSP, no frame-ancestors, no nosniff, no Referrer-Policy; source maps served',
    async run(target: AttackTarget) {
      const answers: [string, RawAnswer][] = [
        ['SPA', await rawRequest(`${target.url}/library`)],
        ['rest', await rawRequest(`${target.url}/rest/v1/brands?select=name&limit=1`, { headers: { apikey: target.anonKey } })],
        ['auth', await rawRequest(`${target.url}/auth/v1/settings`, { headers: { apikey: target.anonKey } })],
      ];
      const gaps = answers.flatMap(([label, answer]) => missingHeaders(answer).map((header) => `${label} ${header}`));
      const spaScripts = directive(answers[0]![1].headers['content-security-policy'] as string | undefined, 'script-src');
      if (spaScripts?.includes("'unsafe-inline'")) gaps.push("SPA script-src 'unsafe-inline'");
      const mapPath = await sourceMapPath();
      const map = await rawRequest(`${target.url}${mapPath}`);
      return {
        now: `${gaps.length === 0 ? 'CSP (script-src \'self\'), frame-ancestors \'none\', X-Frame-Options DENY, nosniff, Referrer-Policy on SPA and APIs' : `missing: ${gaps.join(', ')}`}; ${mapPath}: ${map.status}`,
        held: gaps.length === 0 && map.status === 404,
      };
    },
  },
] satisfies Attack[];
