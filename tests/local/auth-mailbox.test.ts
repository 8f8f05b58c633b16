import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailboxPage } from '../../local/mail/mailbox-page.ts';
import { createMailer, type Mailer, mailerOptionsFromConfig } from '../../local/mail/mailer.ts';
import { describeOnEngines } from '../support/engines.ts';
import { authHarness, fragmentOf, SITE_URL, uniqueEmail } from './auth-harness.ts';

const page = (mailer: Mailer, url: string) => createMailboxPage(mailer)(new Request(url));

describe('auth: the local mailbox', () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'obyect-mailbox-'));
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('lists emails newest first with their links at /_mailbox, escaping everything it shows', async () => {
    const mailer = await createMailer();
    await mailer.send({ to: 'first@example.test', subject: 'First', text: 'hello', html: '<p>hello</p>', links: [`${SITE_URL}/one`] });
    await mailer.send({
      to: 'evil@example.test',
      subject: '<script>alert(1)</script>',
      text: 'Hi <img src=x onerror=alert(2)>',
      html: '',
      links: [`${SITE_URL}/two?a=1&b="2"`, 'javascript:alert(3)'],
    });
    const response = await page(mailer, `${SITE_URL}/_mailbox`);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    const html = await response.text();
    expect(html).not.toMatch(/<script>|<img/);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('Hi &lt;img src=x onerror=alert(2)&gt;');
    expect(html).toContain(`<a href="${SITE_URL}/two?a=1&amp;b=&quot;2&quot;">`);
    expect(html).not.toContain('javascript:alert(3)"');
    expect(html.indexOf('evil@example.test')).toBeLessThan(html.indexOf('first@example.test'));
  });

  it('serves the same list as JSON at /_mailbox.json and with ?format=json, optionally for one recipient', async () => {
    const mailer = await createMailer();
    await mailer.send({ to: 'a@example.test', subject: 'To A', text: 'a', html: '', links: [`${SITE_URL}/a`] });
    await mailer.send({ to: 'B@example.test', subject: 'To B', text: 'b', html: '' });
    const json = await (await page(mailer, `${SITE_URL}/_mailbox.json`)).json();
    expect(json.delivery).toBe('mailbox');
    expect(json.emails.map((email: { subject: string }) => email.subject)).toEqual(['To B', 'To A']);
    expect(json.emails[1]).toMatchObject({ to: 'a@example.test', links: [`${SITE_URL}/a`], id: expect.any(String) });
    const forB = await (await page(mailer, `${SITE_URL}/_mailbox?format=json&to=b@example.test`)).json();
    expect(forB.emails.map((email: { subject: string }) => email.subject)).toEqual(['To B']);
  });

  it('keeps the mailbox in DATA_DIR/mailbox.json so that it survives a restart', async () => {
    const options = mailerOptionsFromConfig({ DATA_DIR: folder, SMTP_URL: undefined });
    expect(options.mailboxFile).toBe(path.join(folder, 'mailbox.json'));
    const before = await createMailer(options);
    await before.send({ to: 'kept@example.test', subject: 'Kept', text: 'still here', html: '' });
    await before.close();
    expect(JSON.parse(await readFile(path.join(folder, 'mailbox.json'), 'utf8')).emails).toHaveLength(1);
    const after = await createMailer(options);
    expect(after.latestTo('KEPT@example.test')).toMatchObject({ subject: 'Kept', text: 'still here' });
  });
});

interface ReceivedMessage {
  from: string;
  to: string[];
  raw: string;
}

/** The text of a quoted-printable MIME body as written by nodemailer. */
const decodeQuotedPrintable = (text: string) =>
  text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));

describeOnEngines('auth: emails through SMTP', (ctx) => {
  const received: ReceivedMessage[] = [];
  let server: SMTPServer;
  let port: number;
  beforeAll(async () => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((recipient) => recipient.address),
            raw: Buffer.concat(chunks).toString('utf8'),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('delivers the confirmation email to the SMTP server, keeps nothing in the mailbox, and its link works', async () => {
    const mailer = await createMailer(mailerOptionsFromConfig({ DATA_DIR: '.tmp/unused', SMTP_URL: `smtp://127.0.0.1:${port}` }));
    try {
      expect(mailer.delivery).toBe('smtp');
      const harness = await authHarness(ctx.db, { mailer });
      const email = uniqueEmail('smtp');
      const { error } = await harness.client().auth.signUp({ email, password: 'secret-123' });
      expect(error).toBeNull();

      const message = received.find((candidate) => candidate.to.includes(email));
      expect(message).toBeDefined();
      expect(message!.raw).toMatch(/^Subject: Obyect: Confirm your signup\r?$/m);
      const body = decodeQuotedPrintable(message!.raw);
      const link = /https?:\/\/\S+\/auth\/v1\/verify\?\S+/.exec(body)![0];
      expect(mailer.list()).toEqual([]);
      expect((await (await createMailboxPage(mailer)(new Request(`${SITE_URL}/_mailbox`))).text())).toMatch(/delivered through SMTP/);

      const landing = await harness.follow(link);
      expect(fragmentOf(landing).get('type')).toBe('signup');
    } finally {
      await mailer.close();
    }
  });

  it('answers 500 and keeps the unconfirmed account when the SMTP server cannot be reached', async () => {
    const closed = new SMTPServer({ authOptional: true, logger: false });
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadPort = (closed.server.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const mailer = await createMailer({ smtpUrl: `smtp://127.0.0.1:${deadPort}` });
    try {
      const harness = await authHarness(ctx.db, { mailer });
      const email = uniqueEmail('unreachable');
      const response = await harness.fetchFrom('smtp-down')(`${SITE_URL}/auth/v1/signup`, {
        method: 'POST',
        body: JSON.stringify({ email, password: 'secret-123' }),
      });
      expect(response.status).toBe(500);
      expect(await response.json()).toMatchObject({ code: 'unexpected_failure', msg: 'Error sending confirmation email' });
      // Signing up again sends a new confirmation email to the waiting account.
      expect((await ctx.db.query('select 1 from auth.users where email = $1 and email_confirmed_at is null', [email])).rows).toHaveLength(1);
    } finally {
      await mailer.close();
    }
  });
});
