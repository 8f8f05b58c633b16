import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { provisionUser } from '../local/auth/provision-user.ts';
import type { LocalStack } from '../local/stack.ts';
import { launchChromium } from './support/chromium.ts';
import { expectConsoleErrors, journey } from './support/journey.ts';

const freshEmail = (label: string) => `${label}-${randomBytes(4).toString('hex')}@example.test`;

/** The action link of the newest email to the address, once the stack has sent it. */
async function linkFromMailbox(stack: LocalStack, address: string, subjectPattern: RegExp): Promise<string> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const email = stack.mailer.latestTo(address);
    if (email && subjectPattern.test(email.subject) && email.links[0]) return email.links[0];
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`No email matching ${subjectPattern} reached ${address}`);
}

async function signInThroughForm(page: Page, email: string, password: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
}

journey('a visitor signs up, confirms by email, signs out, comes back to /profile through sign-in and renames themselves', async ({ page, stack }) => {
  const email = freshEmail('signup');
  await page.goto('/auth/signup');
  // Every field is required, the terms too; each message sits under its field.
  await page.getByRole('button', { name: 'Sign Up', exact: true }).click();
  for (const message of ['Enter your first name.', 'Enter your last name.', 'Enter your email address.', 'Enter your password.', 'Please accept the Terms of Service to continue.']) {
    await page.getByText(message, { exact: true }).waitFor();
  }
  await page.getByLabel('Email').fill('not-an-address');
  await page.getByLabel('Password').fill('short');
  await page.getByRole('button', { name: 'Sign Up', exact: true }).click();
  await page.getByText('Enter a valid email address.', { exact: true }).waitFor();
  await page.getByText('Password must be at least 6 characters.', { exact: true }).waitFor();

  await page.getByLabel('First name').fill('Ada');
  await page.getByLabel('Last name').fill('Lovelace');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('analytical-engine');
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Sign Up', exact: true }).click();
  await page.getByText('Confirm your email to finish signup.').waitFor();

  await page.goto(await linkFromMailbox(stack, email, /confirm/i));
  await page.waitForURL((url) => url.pathname === '/library');
  await page.getByRole('button', { name: 'Ada Lovelace' }).click();
  await page.getByRole('button', { name: 'Logout' }).click();
  await page.getByText('You have been successfully logged out.').waitFor();
  await page.waitForURL((url) => url.pathname === '/auth/signin');

  await page.goto('/profile');
  await page.waitForURL((url) => url.pathname === '/auth/signin' && url.searchParams.get('redirect') === '/profile');
  await signInThroughForm(page, email, 'analytical-engine');
  await page.waitForURL((url) => url.pathname === '/profile');
  await page.getByRole('heading', { name: 'Profile Settings' }).waitFor();
  expect(await page.getByText('Yes', { exact: true }).count()).toBe(1);

  await page.getByLabel('Full name').fill('Ada King');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await page.getByText('Profile updated').waitFor();
  await page.reload();
  await page.getByRole('heading', { name: 'Profile Settings' }).waitFor();
  expect(await page.getByLabel('Full name').inputValue()).toBe('Ada King');
});

journey('a user who forgot the password resets it from the emailed link, which then no longer works, and signs in with the new one', async ({ page, stack }) => {
  const email = freshEmail('reset');
  await provisionUser(stack.db, { email, password: 'old-password', metadata: { full_name: 'Grace Hopper' } });

  await page.goto('/auth/signin');
  await page.getByRole('link', { name: 'Forgot Password?' }).click();
  await page.waitForURL((url) => url.pathname === '/auth/forgot-password');
  // The page is its own chunk: until it renders, the sign-in form (with its own Email field) is still showing.
  await page.getByRole('heading', { name: 'Forgot your password?' }).waitFor();
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send Reset Link' }).click();
  await page.getByText('Check your email').waitFor();

  const resetLink = await linkFromMailbox(stack, email, /reset|password/i);
  await page.goto(resetLink);
  await page.waitForURL((url) => url.pathname === '/auth/reset-password');
  await page.getByLabel('New password', { exact: true }).fill('new');
  await page.getByLabel('Confirm new password').fill('new');
  await page.getByRole('button', { name: 'Update Password' }).click();
  await page.getByText('Password must be at least 6 characters.', { exact: true }).waitFor();
  await page.getByLabel('New password', { exact: true }).fill('new-password');
  await page.getByLabel('Confirm new password').fill('new-passwort');
  await page.getByRole('button', { name: 'Update Password' }).click();
  await page.getByText('Passwords do not match.', { exact: true }).waitFor();
  await page.getByLabel('New password', { exact: true }).fill('new-password');
  await page.getByLabel('Confirm new password').fill('new-password');
  await page.getByRole('button', { name: 'Update Password' }).click();
  await page.getByText('Password updated', { exact: true }).waitFor();
  await page.waitForURL((url) => url.pathname === '/auth/signin');

  await page.goto(resetLink);
  await page.getByRole('heading', { name: 'This reset link no longer works' }).waitFor();
  await page.getByRole('link', { name: 'Back to Sign In' }).click();
  await page.waitForURL((url) => url.pathname === '/auth/signin');
  // A redirect to another site is not followed: the library instead.
  await page.goto('/auth/signin?redirect=https%3A%2F%2Fevil.example');
  await signInThroughForm(page, email, 'new-password');
  await page.waitForURL((url) => url.pathname === '/library');
  expect(new URL(page.url()).origin).toBe(stack.url);
  await page.getByRole('button', { name: 'Grace Hopper' }).waitFor();
});

journey('a signed-in user changes the email address on the profile and confirms it from the new inbox', async ({ page, stack }) => {
  const email = freshEmail('before');
  const newEmail = freshEmail('after');
  await provisionUser(stack.db, { email, password: 'change-me-1', metadata: { full_name: 'Hedy Lamarr' } });
  await page.goto('/auth/signin?redirect=%2Fprofile');
  await signInThroughForm(page, email, 'change-me-1');
  await page.waitForURL((url) => url.pathname === '/profile');

  const info = page.locator('form').filter({ has: page.getByRole('button', { name: 'Save Changes' }) });
  await info.getByLabel('Email').fill(newEmail);
  // A new address needs the current password.
  await info.getByRole('button', { name: 'Save Changes' }).click();
  await info.getByText('Enter your current password.', { exact: true }).waitFor();
  await info.getByLabel('Current password').fill('change-me-1');
  await info.getByRole('button', { name: 'Save Changes' }).click();
  await page.getByText(`Check ${newEmail} to confirm the change of address.`).waitFor();
  await page.getByText(`Waiting for you to confirm ${newEmail} from the link we sent.`).waitFor();

  const changeLink = await linkFromMailbox(stack, newEmail, /email/i);
  await page.goto(changeLink);
  await page.waitForURL((url) => url.pathname === '/profile');
  await page.getByRole('heading', { name: 'Profile Settings' }).waitFor();
  await page.waitForFunction((expected) => (document.querySelector('input[type="email"]') as HTMLInputElement | null)?.value === expected, newEmail);
});

journey('a signed-in user changes the password on the profile, is sent to sign-in when signed out elsewhere, and signs in with the new password', async ({ page, stack }) => {
  // The wrong password's refusal, and the signed-out tab's last call with its revoked token.
  expectConsoleErrors(page, /status of (400|401) /);
  const email = freshEmail('password');
  await provisionUser(stack.db, { email, password: 'first-password', metadata: { full_name: 'Katherine Johnson' } });
  await page.goto('/auth/signin?redirect=%2Fprofile%3Ftab%3Dsecurity');
  await signInThroughForm(page, email, 'first-password');
  await page.waitForURL((url) => url.pathname === '/profile' && url.searchParams.get('tab') === 'security');

  const card = page.locator('form').filter({ has: page.getByRole('button', { name: 'Update Password' }) });
  // The current password is the proof: a wrong one is refused in our words.
  await card.getByLabel('Current password').fill('not-my-password');
  await card.getByLabel('New password', { exact: true }).fill('second-password');
  await card.getByLabel('Confirm new password').fill('second-password');
  await card.getByRole('button', { name: 'Update Password' }).click();
  await page.getByText('Your current password is not right.', { exact: true }).waitFor();
  await card.getByLabel('Current password').fill('first-password');
  await card.getByLabel('New password', { exact: true }).fill('abc');
  await card.getByLabel('Confirm new password').fill('abc');
  await card.getByRole('button', { name: 'Update Password' }).click();
  await page.getByText('Password too short', { exact: true }).waitFor();
  await page.getByText('Password must be at least 6 characters long.', { exact: true }).waitFor();
  await card.getByLabel('New password', { exact: true }).fill('second-password');
  await card.getByLabel('Confirm new password').fill('second-passwort');
  await card.getByRole('button', { name: 'Update Password' }).click();
  await page.getByText('Password mismatch', { exact: true }).waitFor();
  await page.getByText('The passwords do not match.', { exact: true }).waitFor();
  await card.getByLabel('Confirm new password').fill('second-password');
  await card.getByRole('button', { name: 'Update Password' }).click();
  await page.getByText('Password updated', { exact: true }).waitFor();

  // Signing out in another tab of the same browser: this guarded page goes to sign-in, remembering where it was.
  const other = await page.context().newPage();
  await other.goto('/library');
  await other.getByRole('button', { name: 'Katherine Johnson' }).click();
  await other.getByRole('button', { name: 'Logout' }).click();
  await other.waitForURL((url) => url.pathname === '/auth/signin');
  await other.close();
  await page.waitForURL((url) => url.pathname === '/auth/signin' && url.searchParams.get('redirect') === '/profile?tab=security');

  await signInThroughForm(page, email, 'first-password');
  await page.getByText('Invalid login credentials').first().waitFor();
  await signInThroughForm(page, email, 'second-password');
  await page.waitForURL((url) => url.pathname === '/profile' && url.searchParams.get('tab') === 'security');
});

// Last in this file: it spends the address's failed sign-ins, after which even a right password waits.
journey('redirects to other sites or to scripts are never followed, and five wrong passwords in a row meet the rate limit', async ({ page, stack }) => {
  // Each refused sign-in: wrong passwords, then the rate limit.
  expectConsoleErrors(page, /status of (400|429) /);
  const email = freshEmail('hostile');
  await provisionUser(stack.db, { email, password: 'right-password', metadata: { full_name: 'Mary Jackson' } });
  for (const hostile of ['//evil.example', 'javascript:alert(document.domain)', 'https://evil.example/library']) {
    await page.goto(`/auth/signin?redirect=${encodeURIComponent(hostile)}`);
    await signInThroughForm(page, email, 'right-password');
    await page.waitForURL((url) => url.pathname === '/library');
    expect(new URL(page.url()).origin).toBe(stack.url);
    await page.getByRole('button', { name: 'Mary Jackson' }).click();
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL((url) => url.pathname === '/auth/signin');
  }

  await page.goto('/auth/signin');
  /** One sign-in through the form; the status auth/v1 answered. */
  const attempt = async (password: string) => {
    const [response] = await Promise.all([
      page.waitForResponse((candidate) => candidate.url().includes('/auth/v1/token') && candidate.request().method() === 'POST'),
      signInThroughForm(page, email, password),
    ]);
    return response.status();
  };
  const alert = page.getByRole('alert').filter({ hasText: /Invalid login credentials|Too many/ });
  // Five failures of this account from this address, then it backs off (other accounts of the address never do).
  const statuses: number[] = [];
  for (let tries = 1; tries <= 6 && statuses.at(-1) !== 429; tries += 1) {
    statuses.push(await attempt(`wrong-password-${tries}`));
    if (statuses.at(-1) === 400) await alert.filter({ hasText: 'Invalid login credentials' }).waitFor();
  }
  expect(statuses.at(-1)).toBe(429);
  expect(statuses.slice(0, -1).every((status) => status === 400)).toBe(true);
  // Now even the right password waits, and the form says why.
  expect(await attempt('right-password')).toBe(429);
  await alert.filter({ hasText: /^Login failedToo many failed sign-in attempts\. Please wait a few minutes and try again\.$/ }).waitFor();
  expect(new URL(page.url()).pathname).toBe('/auth/signin');
});

async function signUpThroughForm(page: Page, email: string, password: string) {
  await page.getByLabel('First name').fill('Grace');
  await page.getByLabel('Last name').fill('Hopper');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Sign Up', exact: true }).click();
  await page.getByText('Confirm your email to finish signup.').waitFor();
}

journey('opened at 127.0.0.1, the confirmation link comes back to 127.0.0.1 and signs in; opened in another browser it confirms and asks to sign in, in our words', async ({ page, stack }) => {
  const loopback = stack.url.replace('//localhost:', '//127.0.0.1:');
  const email = freshEmail('origin');
  await page.goto(`${loopback}/auth/signup?next=%2Ftop-picks`);
  await signUpThroughForm(page, email, 'compiler-first');
  const link = await linkFromMailbox(stack, email, /confirm/i);
  expect(new URL(link).searchParams.get('redirect_to')).toBe(`${loopback}/auth/confirmed?next=%2Ftop-picks`);
  await page.goto(link);
  await page.waitForURL((url) => url.origin === loopback && url.pathname === '/top-picks');
  // Signed in there: the signed-in shell's sidebar, with the account's name.
  await page.getByTestId('profile-card').waitFor();
  expect(await page.getByTestId('profile-card').textContent()).toContain('Grace Hopper');

  // Another sign-up, its link opened in a fresh browser, which holds no PKCE verifier: confirmed all the same.
  const other = freshEmail('elsewhere');
  await page.goto('/auth/signup');
  await signUpThroughForm(page, other, 'nanoseconds');
  const elsewhere = await launchChromium({ baseURL: stack.url });
  try {
    const fresh = elsewhere.context.pages()[0] ?? (await elsewhere.context.newPage());
    await fresh.goto(await linkFromMailbox(stack, other, /confirm/i));
    await fresh.waitForURL((url) => url.pathname === '/auth/confirmed');
    expect(await fresh.getByTestId('email-confirmed').textContent()).toBe('Your address is confirmed. Sign in to continue.');
    expect((await fresh.locator('main, body').first().textContent())!.match(/Email confirmed/g)).toHaveLength(1);
    expect(await fresh.locator('body').textContent()).not.toMatch(/PKCE|verifier|AuthApiError|no longer works/i);
    const confirmed = await stack.db.query<{ confirmed: boolean }>('select email_confirmed_at is not null as confirmed from auth.users where email = $1', [other]);
    expect(confirmed.rows[0]!.confirmed).toBe(true);
    await fresh.getByRole('link', { name: 'Sign in' }).click();
    await fresh.waitForURL((url) => url.pathname === '/auth/signin');
    await signInThroughForm(fresh, other, 'nanoseconds');
    await fresh.waitForURL((url) => url.pathname === '/library');
  } finally {
    await elsewhere.close();
  }
}, 240_000);
