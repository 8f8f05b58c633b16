import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import { z } from 'zod';
import type { LocalConfig } from '../config.ts';

/** An email the local stack sends (auth confirmations, recovery links ...). */
export interface OutgoingEmail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The action links in the email, listed so the mailbox page and tests can follow them. */
  links?: string[];
}

export interface SentEmail {
  id: string;
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  links: string[];
  sentAt: string;
}

export interface Mailer {
  /** 'mailbox' keeps emails locally (see /_mailbox); 'smtp' delivers them and keeps nothing. */
  readonly delivery: 'mailbox' | 'smtp';
  send(email: OutgoingEmail): Promise<SentEmail>;
  /** The emails in the local mailbox, newest first. */
  list(): SentEmail[];
  /** The newest email in the local mailbox to this address. */
  latestTo(address: string): SentEmail | undefined;
  clear(): Promise<void>;
  close(): Promise<void>;
}

export interface MailerOptions {
  /** Deliver through this SMTP server instead of keeping emails in the local mailbox. */
  smtpUrl?: string;
  /** Where the local mailbox is saved so it survives restarts; omitted keeps it in memory only. */
  mailboxFile?: string;
  from?: string;
  /** The mailbox keeps this many newest emails. */
  maxKept?: number;
}

export const DEFAULT_FROM = 'Obyect <no-reply@obyect.localhost>';
const DEFAULT_MAX_KEPT = 500;

const sentEmailSchema = z.object({
  id: z.string(),
  from: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string(),
  links: z.array(z.string()),
  sentAt: z.string(),
});
const mailboxFileSchema = z.object({ emails: z.array(sentEmailSchema) });

/** The mailer the local stack runs with: SMTP when SMTP_URL is set, else a mailbox saved in DATA_DIR. */
export function mailerOptionsFromConfig(config: Pick<LocalConfig, 'DATA_DIR' | 'SMTP_URL'>): MailerOptions {
  return config.SMTP_URL
    ? { smtpUrl: config.SMTP_URL }
    : { mailboxFile: path.resolve(config.DATA_DIR, 'mailbox.json') };
}

export async function createMailer(options: MailerOptions = {}): Promise<Mailer> {
  const from = options.from ?? DEFAULT_FROM;
  if (options.smtpUrl) return createSmtpMailer(options.smtpUrl, from);
  return createMailboxMailer(from, options.mailboxFile, options.maxKept ?? DEFAULT_MAX_KEPT);
}

function sentEmail(from: string, email: OutgoingEmail): SentEmail {
  return {
    id: randomUUID(),
    from,
    to: email.to,
    subject: email.subject,
    text: email.text,
    html: email.html,
    links: email.links ?? [],
    sentAt: new Date().toISOString(),
  };
}

function createSmtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    delivery: 'smtp',
    async send(email) {
      const sent = sentEmail(from, email);
      await transport.sendMail({ from, to: email.to, subject: email.subject, text: email.text, html: email.html });
      return sent;
    },
    list: () => [],
    latestTo: () => undefined,
    async clear() {},
    async close() {
      transport.close();
    },
  };
}

async function loadMailbox(file: string): Promise<SentEmail[]> {
  let raw: string;
  try {
    raw = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const parsed = mailboxFileSchema.safeParse(JSON.parse(raw));
  if (!parsed.success) throw new Error(`The local mailbox file ${file} is not a mailbox; move it away to start empty.`);
  return parsed.data.emails;
}

async function createMailboxMailer(from: string, file: string | undefined, maxKept: number): Promise<Mailer> {
  let emails: SentEmail[] = file ? await loadMailbox(file) : [];
  // Writes are chained so that concurrent sends never interleave on disk.
  let saving: Promise<void> = Promise.resolve();
  const save = () => {
    if (!file) return Promise.resolve();
    const snapshot = JSON.stringify({ emails }, null, 2);
    saving = saving.then(async () => {
      await mkdir(path.dirname(file), { recursive: true });
      const temporary = `${file}.${process.pid}.tmp`;
      await writeFile(temporary, snapshot);
      await rename(temporary, file);
    });
    return saving;
  };
  return {
    delivery: 'mailbox',
    async send(email) {
      const sent = sentEmail(from, email);
      emails = [sent, ...emails].slice(0, maxKept);
      await save();
      return sent;
    },
    list: () => [...emails],
    latestTo(address) {
      const wanted = address.trim().toLowerCase();
      return emails.find((email) => email.to.toLowerCase() === wanted);
    },
    async clear() {
      emails = [];
      await save();
    },
    async close() {
      await saving;
    },
  };
}
