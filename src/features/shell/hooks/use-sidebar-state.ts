import { useCallback, useEffect, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { readSidebarOpen, writeSidebarOpen } from './sidebar-cookie.ts';
import { useIsMobile } from '../../../hooks/use-is-mobile.ts';

export interface SidebarState {
  /** Desktop: expanded (272 px) rather than collapsed to icons (72 px). */
  open: boolean;
  setOpen: (open: boolean) => void;
  /** Mobile: the drawer is showing. */
  drawerOpen: boolean;
  setDrawerOpen: (open: boolean) => void;
  isMobile: boolean;
  /** What Ctrl/Cmd+B does: the drawer on mobile, expand/collapse elsewhere. */
  toggle: () => void;
}

/** True for Ctrl+B (Cmd+B on a Mac) without other modifiers. */
export function isSidebarShortcut(event: KeyboardEvent): boolean {
  return event.key.toLowerCase() === 'b' && (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey;
}

/**
 * The sidebar's state: expanded or collapsed kept in a cookie for seven days,
 * the mobile drawer closed after every navigation, Ctrl/Cmd+B toggling.
 */
export function useSidebarState(): SidebarState {
  const isMobile = useIsMobile();
  const [open, setOpenState] = useState(() => readSidebarOpen());
  const [drawerOpen, setDrawerOpen] = useState(false);
  const location = useLocation();

  const setOpen = useCallback((value: boolean) => {
    setOpenState(value);
    writeSidebarOpen(value);
  }, []);

  const toggle = useCallback(() => {
    if (isMobile) setDrawerOpen((value) => !value);
    else setOpen(!readSidebarOpen());
  }, [isMobile, setOpen]);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!isSidebarShortcut(event)) return;
      event.preventDefault();
      toggle();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [toggle]);

  // A navigation closes the drawer (its links go somewhere; the page underneath is what they want to see).
  useEffect(() => {
    setDrawerOpen(false);
  }, [location.pathname, location.search]);

  // Leaving the mobile width closes a drawer left open.
  useEffect(() => {
    if (!isMobile) setDrawerOpen(false);
  }, [isMobile]);

  return { open, setOpen, drawerOpen, setDrawerOpen, isMobile, toggle };
}
