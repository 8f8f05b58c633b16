import type { ReactNode } from 'react';
import { useBoardPicker } from '../hooks/use-board-picker.ts';
import { AddToBoardPanel } from './add-to-board-panel.tsx';

export interface OpenBoardPickerProps {
  adId: string;
  userId: string;
  titleId: string;
  onClose: () => void;
  renderTitle: (text: string) => ReactNode;
}

/**
 * The panel's boards, memberships and pending changes: mounted only while the panel is open, not once per card,
 * and loaded with its panel on the first open (or hover), not with the grid.
 */
export default function OpenBoardPicker({ adId, userId, titleId, onClose, renderTitle }: OpenBoardPickerProps) {
  const picker = useBoardPicker(adId, userId, true);
  return <AddToBoardPanel picker={picker} titleId={titleId} onClose={onClose} onConfirmed={onClose} renderTitle={renderTitle} />;
}
