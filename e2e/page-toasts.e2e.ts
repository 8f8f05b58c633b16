import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { provisionUser } from '../local/auth/provision-user.ts';
import { expectConsoleErrors, journey } from './support/journey.ts';

/** What a page said leaves with it: checked well before sonner's own 4 s would close a toast. */
const GONE_WITHIN = { timeout: 1_500, interval: 100 };

for (const width of [390, 1440]) {
  journey(`at ${width} px, a wrong password is said once, under the form, and leaves with the page; signing in says 'Welcome back' on the library`, async ({ page, stack }) => {
    await page.setViewportSize({ width, height: 900 });
    // The refused sign-in's 400, which the browser logs.
    expectConsoleErrors(page, /status of 400 /);
    const email = `toast-${randomBytes(4).toString('hex')}@example.test`;
    await provisionUser(stack.db, { email, password: 'the-right-password', metadata: { full_name: 'Toni Toast' } });

    await page.goto('/auth/signin');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('a-wrong-password');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'Login failed' });
    await alert.waitFor({ state: 'visible' });
    expect(await alert.textContent()).toBe('Login failedInvalid login credentials. Check your email and password.');
    // Not a second time in a toast.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await page.locator('[data-sonner-toast]').count()).toBe(0);
    expect(await page.getByText('Invalid login credentials. Check your email and password.').count()).toBe(1);

    await page.getByRole('link', { name: 'Forgot Password?' }).click();
    await page.getByRole('heading', { name: 'Forgot your password?' }).waitFor();
    await expect.poll(() => page.getByText('Login failed').count(), GONE_WITHIN).toBe(0);

    // A toast that announces where the user lands still does.
    await page.goto('/auth/signin');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('the-right-password');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/library');
    await page.locator('[data-sonner-toast]').filter({ hasText: 'Welcome back' }).waitFor({ state: 'visible' });
  });
}
