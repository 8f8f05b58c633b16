import type { ApiHandler } from '../http/api-handler.ts';
import { escapeHtml } from './escape-html.ts';
import type { Mailer, SentEmail } from './mailer.ts';

/**
 * /_mailbox: the emails the local stack sent, newest first, with their links,
 * as an HTML page or, at /_mailbox.json or with ?format=json, as JSON.
 * ?to=<address> narrows the list to one recipient.
 */
export function createMailboxPage(mailer: Mailer): ApiHandler {
  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return new Response('Method not allowed', { status: 405, headers: { allow: 'GET, HEAD' } });
    }
    const url = new URL(request.url);
    const to = url.searchParams.get('to')?.trim().toLowerCase();
    const emails = mailer.list().filter((email) => !to || email.to.toLowerCase() === to);
    const wantsJson = url.pathname.endsWith('.json') || url.searchParams.get('format') === 'json';
    if (wantsJson) {
      return Response.json({ delivery: mailer.delivery, emails }, { headers: { 'cache-control': 'no-store' } });
    }
    return new Response(mailboxHtml(emails, mailer.delivery), {
      headers: {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
        // The page shows text that came from users (names, addresses): nothing on it may run.
        'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
        'referrer-policy': 'no-referrer',
      },
    });
  };
}

const isWebLink = (link: string) => /^https?:\/\//i.test(link);

function emailHtml(email: SentEmail): string {
  const links = email.links.filter(isWebLink);
  return `<article>
  <header>
    <h2>${escapeHtml(email.subject)}</h2>
    <p class="meta">To <strong>${escapeHtml(email.to)}</strong> · from ${escapeHtml(email.from)} · <time datetime="${escapeHtml(email.sentAt)}">${escapeHtml(email.sentAt)}</time></p>
  </header>
  ${links.length > 0 ? `<ul class="links">${links.map((link) => `<li><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></li>`).join('')}</ul>` : ''}
  <pre>${escapeHtml(email.text)}</pre>
</article>`;
}

function mailboxHtml(emails: SentEmail[], delivery: Mailer['delivery']): string {
  const body =
    delivery === 'smtp'
      ? '<p>Emails are delivered through SMTP (SMTP_URL), so none are kept here.</p>'
      : emails.length === 0
        ? '<p>No emails yet. Sign up or ask for a password reset and the email appears here.</p>'
        : emails.map(emailHtml).join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Local mailbox (${emails.length})</title>
<style>
  body { font: 15px/1.5 system-ui, sans-serif; margin: 2rem auto; max-width: 60rem; padding: 0 1rem; color: #111; }
  article { border: 1px solid #ddd; border-radius: 8px; padding: 1rem 1.25rem; margin: 1rem 0; }
  h2 { font-size: 1.1rem; margin: 0; }
  .meta { color: #555; margin: .25rem 0 .75rem; }
  .links a { word-break: break-all; }
  pre { white-space: pre-wrap; word-break: break-word; background: #f6f6f6; padding: .75rem; border-radius: 6px; }
</style>
</head>
<body>
<h1>Local mailbox</h1>
<p>Emails sent by the local stack, newest first. <a href="/_mailbox.json">JSON</a></p>
${body}
</body>
</html>
`;
}
