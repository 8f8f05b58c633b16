import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { provisionUser } from '../local/auth/provision-user.ts';
import type { LocalStack } from '../local/stack.ts';
import { journey } from './support/journey.ts';

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
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send Reset Link' }).click();
  await page.getByText('Check your email').waitFor();

  const resetLink = await linkFromMailbox(stack, email, /reset|password/i);
  await page.goto(resetLink);
  await page.waitForURL((url) => url.pathname === '/auth/reset-password');
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

  await page.getByLabel('Email').fill(newEmail);
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await page.getByText(`Check ${newEmail} to confirm the change of address.`).waitFor();
  await page.getByText(`Waiting for you to confirm ${newEmail} from the link we sent.`).waitFor();

  const changeLink = await linkFromMailbox(stack, newEmail, /email/i);
  await page.goto(changeLink);
  await page.waitForURL((url) => url.pathname === '/profile');
  await page.getByRole('heading', { name: 'Profile Settings' }).waitFor();
  await page.waitForFunction((expected) => (document.querySelector('input[type="email"]') as HTMLInputElement | null)?.value === expected, newEmail);
});
