import { createContext, useContext, type ReactNode } from 'react';
import type { Ad } from '../../lib/ad-schema.ts';

/** Renders the add-to-board control of one ad: on a card, or in the ad detail's header. */
export type RenderAddToBoard = (ad: Ad, placement: 'card' | 'detail') => ReactNode;

const AddToBoardSlotContext = createContext<RenderAddToBoard | null>(null);

/** The app plugs the boards' add-to-board control in here once, for every ad card and the ad detail. */
export function AddToBoardSlotProvider({ render, children }: { render: RenderAddToBoard; children: ReactNode }) {
  return <AddToBoardSlotContext.Provider value={render}>{children}</AddToBoardSlotContext.Provider>;
}

export function useAddToBoardSlot(): RenderAddToBoard | null {
  return useContext(AddToBoardSlotContext);
}
