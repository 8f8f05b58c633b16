import type { Locator, Page } from 'playwright-core';

/** Opens the toolbar's Filters panel (from 768 px) unless it is open; answers the panel. */
export async function openFilterPanel(page: Page): Promise<Locator> {
  const panel = page.getByTestId('filter-panel');
  if (!(await panel.isVisible())) await page.getByRole('button', { name: /^Filters/ }).click();
  await panel.waitFor({ state: 'visible' });
  return panel;
}
