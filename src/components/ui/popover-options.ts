import type { CSSProperties } from 'react';

/** What the popover's content takes, shared by the popover and its lazily loaded Radix part. */
export interface PopoverContentOptions {
  id?: string;
  align?: 'start' | 'center' | 'end';
  sideOffset?: number;
  collisionPadding?: number;
  className?: string;
  style?: CSSProperties;
  role?: string;
  'aria-labelledby'?: string;
  'data-testid'?: string;
  onEscapeKeyDown?: (event: KeyboardEvent) => void;
}
