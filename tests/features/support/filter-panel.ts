import { fireEvent, screen, within } from '@testing-library/react';

/** Opens the toolbar's Filters panel (from 768 px) unless it is open; answers the panel. */
export async function openFilterPanel(): Promise<HTMLElement> {
  const open = screen.queryByTestId('filter-panel');
  if (open) return open;
  fireEvent.click(screen.getByRole('button', { name: /^Filters/ }));
  return screen.findByTestId('filter-panel');
}

/** A toggle of one of the panel's lists to tick (Type, Platform, Hook, Tags …), by the list's and the option's names. */
export async function panelToggle(list: string, option: string): Promise<HTMLElement> {
  const panel = await openFilterPanel();
  return within(within(panel).getByRole('group', { name: list })).getByRole('button', { name: option });
}
