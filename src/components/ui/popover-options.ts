import type { CSSProperties } from 'react';

/**
 * Marks an element whose box a popover opened inside it stays within, when the popover asks to (keepInsideBoundary):
 * the app shell's page column, beside the sidebar.
 */
export const POPOVER_BOUNDARY_ATTRIBUTE = 'data-popover-boundary';

/** What the popover's content takes, shared by the popover and its lazily loaded Radix part. */
export interface PopoverContentOptions {
  id?: string;
  align?: 'start' | 'center' | 'end';
  sideOffset?: number;
  collisionPadding?: number;
  /** Radix's collision boundary: the content stays inside this element's box (the viewport when none is given). */
  collisionBoundary?: Element;
  className?: string;
  style?: CSSProperties;
  role?: string;
  'aria-labelledby'?: string;
  'data-testid'?: string;
  onEscapeKeyDown?: (event: KeyboardEvent) => void;
}
