import { escapeHtml } from '../mail/escape-html.ts';
import type { Mailer, OutgoingEmail } from '../mail/mailer.ts';
import { internalError } from './auth-environment.ts';
import type { EmailLinkType, IssuedEmailToken } from './email-tokens.ts';

/** The link an email carries: GET /auth/v1/verify, which signs the user in and lands on redirectTo. */
export function verifyLink(apiUrl: string, type: EmailLinkType, linkToken: string, redirectTo: string): string {
  const url = new URL(`${apiUrl}/verify`);
  url.searchParams.set('token', linkToken);
  url.searchParams.set('type', type);
  url.searchParams.set('redirect_to', redirectTo);
  return url.toString();
}

const TEMPLATES: Record<EmailLinkType, { subject: string; intro: string; action: string }> = {
  signup: {
    subject: 'Confirm your signup',
    intro: 'Follow this link to confirm your email address and finish creating your account:',
    action: 'Confirm your email',
  },
  invite: {
    subject: 'You have been invited',
    intro: 'You have been invited to create an account. Follow this link to accept the invite:',
    action: 'Accept the invite',
  },
  recovery: {
    subject: 'Reset your password',
    intro: 'Follow this link to choose a new password. If you did not ask for it, ignore this email.',
    action: 'Reset password',
  },
  magiclink: {
    subject: 'Your sign-in link',
    intro: 'Follow this link to sign in:',
    action: 'Sign in',
  },
  email_change: {
    subject: 'Confirm your new email address',
    intro: 'Follow this link to confirm that this is your new email address:',
    action: 'Confirm email change',
  },
};

/** The email for a link of this type, with the link and the six-digit code that can stand in for it. */
export function authEmail(
  type: EmailLinkType,
  to: string,
  token: IssuedEmailToken,
  link: string,
  productName = 'Obyect',
): OutgoingEmail {
  const template = TEMPLATES[type];
  const subject = `${productName}: ${template.subject}`;
  const text = [template.intro, '', link, '', `Or enter this code: ${token.otp}`, '', `— ${productName}`].join('\n');
  const html = `<!doctype html>
<html><body style="font-family: system-ui, sans-serif; line-height: 1.5">
<h2>${escapeHtml(template.subject)}</h2>
<p>${escapeHtml(template.intro)}</p>
<p><a href="${escapeHtml(link)}">${escapeHtml(template.action)}</a></p>
<p>Or enter this code: <strong>${escapeHtml(token.otp)}</strong></p>
<p>— ${escapeHtml(productName)}</p>
</body></html>`;
  return { to, subject, text, html, links: [link] };
}

const EMAIL_NAMES: Record<EmailLinkType, string> = {
  signup: 'confirmation',
  invite: 'invite',
  recovery: 'recovery',
  magiclink: 'magic link',
  email_change: 'email change',
};

/** Sends the email for a freshly issued token; a failed delivery is the caller's 500. */
export async function sendAuthEmail(
  mailer: Mailer,
  apiUrl: string,
  email: { type: EmailLinkType; to: string; token: IssuedEmailToken; redirectTo: string },
): Promise<void> {
  const link = verifyLink(apiUrl, email.type, email.token.linkToken, email.redirectTo);
  try {
    await mailer.send(authEmail(email.type, email.to, email.token, link));
  } catch (error) {
    throw internalError(`Error sending ${EMAIL_NAMES[email.type]} email`, error);
  }
}

/** The notices that carry no token: they tell an address's owner what someone asked for with it. */
export type AccountNotice = 'account_exists' | 'email_change_to_existing';

const NOTICES: Record<AccountNotice, { subject: string; intro: string }> = {
  account_exists: {
    subject: 'You already have an account',
    intro:
      'Someone, probably you, tried to create an account with this email address, but you already have one. ' +
      'Nothing was changed. Sign in, or reset your password if you no longer know it. If it was not you, ignore this email.',
  },
  email_change_to_existing: {
    subject: 'Someone asked to move an account to this address',
    intro:
      'Someone asked to change the email address of another account to this one, but this address already belongs to your account. ' +
      'Nothing was changed. If you no longer know your password, you can reset it.',
  },
};

/** The notice for an address that already has an account, with links to sign in and to reset the password. */
export function accountNoticeEmail(notice: AccountNotice, to: string, siteOrigin: string, productName = 'Obyect'): OutgoingEmail {
  const template = NOTICES[notice];
  const signIn = `${siteOrigin}/auth/signin`;
  const reset = `${siteOrigin}/auth/forgot-password`;
  const subject = `${productName}: ${template.subject}`;
  const text = [template.intro, '', `Sign in: ${signIn}`, `Reset your password: ${reset}`, '', `— ${productName}`].join('\n');
  const html = `<!doctype html>
<html><body style="font-family: system-ui, sans-serif; line-height: 1.5">
<h2>${escapeHtml(template.subject)}</h2>
<p>${escapeHtml(template.intro)}</p>
<p><a href="${escapeHtml(signIn)}">Sign in</a> · <a href="${escapeHtml(reset)}">Reset your password</a></p>
<p>— ${escapeHtml(productName)}</p>
</body></html>`;
  return { to, subject, text, html, links: [signIn, reset] };
}

/** Sends a notice; a failed delivery is only logged, since the answer must not differ from one for a new address. */
export async function sendAccountNotice(mailer: Mailer, notice: AccountNotice, to: string, redirectTo: string): Promise<void> {
  try {
    await mailer.send(accountNoticeEmail(notice, to, new URL(redirectTo).origin));
  } catch (error) {
    console.error(`auth: sending the ${notice} notice failed:`, error);
  }
}
