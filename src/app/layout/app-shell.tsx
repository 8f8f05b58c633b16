import type { CSSProperties, ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { SIDEBAR_COLLAPSED_WIDTH_PX, SIDEBAR_WIDTH_PX } from '../../lib/constants.ts';
import { SHELL_TEXTS } from '../../lib/shell-texts.ts';
import { POPOVER_BOUNDARY_ATTRIBUTE } from '../../components/ui/popover-options.ts';
import { useSidebarState } from '../../features/shell/hooks/use-sidebar-state.ts';
import { AppSidebar } from './app-sidebar.tsx';
import { MobileDrawer } from './mobile-drawer.tsx';
import { ShareButton } from './share-button.tsx';
import { MenuIcon, PanelLeftIcon } from './shell-icons.tsx';
import { SiteFooter } from './site-footer.tsx';
import { UserMenu } from './user-menu.tsx';

const SIDEBAR_ID = 'app-sidebar';

const iconButton =
  'inline-flex h-9 w-9 items-center justify-center rounded-lg text-neutral-600 transition-colors hover:bg-neutral-100 hover:text-neutral-950 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-neutral-950';

/**
 * The signed-in layout: the sidebar (272 px, 72 px collapsed) beside the page
 * from 768 px up, a menu button and a 280 px drawer below that, the footer under the page.
 */
export function AppShell({ children, bottomInset = false, headerAction }: { children: ReactNode; bottomInset?: boolean; headerAction?: ReactNode }) {
  const sidebar = useSidebarState();
  const collapsed = !sidebar.open;
  const width = collapsed ? SIDEBAR_COLLAPSED_WIDTH_PX : SIDEBAR_WIDTH_PX;
  // Fixed bars of the page (the library's bottom bar) start after the sidebar through this variable.
  const style = { '--app-sidebar-width': `${width}px` } as CSSProperties;

  return (
    <div style={style} data-testid="app-shell" className="min-h-dvh bg-neutral-50 text-neutral-950">
      <aside
        id={SIDEBAR_ID}
        aria-label="Sidebar"
        data-testid="app-sidebar"
        data-state={collapsed ? 'collapsed' : 'expanded'}
        style={{ width }}
        className="fixed inset-y-0 left-0 z-40 hidden border-r border-neutral-200/80 bg-white transition-[width] duration-200 ease-out md:block"
      >
        {/* Hidden below 768 px, where the drawer carries the same content: not rendered there at all. */}
        {!sidebar.isMobile && <AppSidebar collapsed={collapsed} variant="sidebar" />}
      </aside>
      <div className={`flex min-h-dvh flex-col transition-[padding] duration-200 ease-out md:pl-[var(--app-sidebar-width)] ${bottomInset ? 'pb-28 sm:pb-16' : ''}`}>
        <header className="sticky top-0 z-30 border-b border-neutral-200/70 bg-white">
          <div className="flex h-14 items-center gap-2 px-4 sm:h-16 sm:px-6 lg:px-8">
            {sidebar.isMobile ? (
              <button
                type="button"
                onClick={() => sidebar.setDrawerOpen(true)}
                aria-label={SHELL_TEXTS.shell.openMenu}
                aria-expanded={sidebar.drawerOpen}
                aria-haspopup="dialog"
                className={`${iconButton} -ml-2`}
              >
                <MenuIcon className="h-5 w-5" />
              </button>
            ) : (
              <button
                type="button"
                onClick={() => sidebar.setOpen(!sidebar.open)}
                aria-label={SHELL_TEXTS.shell.toggleSidebar}
                aria-controls={SIDEBAR_ID}
                aria-expanded={sidebar.open}
                title={`${SHELL_TEXTS.shell.toggleSidebar} (Ctrl+B)`}
                className={`${iconButton} -ml-2`}
              >
                <PanelLeftIcon className="h-5 w-5" />
              </button>
            )}
            {sidebar.isMobile && (
              <Link to="/library" aria-label="Obyect – Library" className="flex items-center gap-2 text-neutral-950">
                <img src="/favicon.svg" alt="" className="h-7 w-7" />
                <span className="text-[17px] font-bold tracking-tight">obyect</span>
              </Link>
            )}
            <div className="ml-auto flex items-center gap-1.5">
              {headerAction}
              <ShareButton />
              <UserMenu />
            </div>
          </div>
        </header>
        {/* The page: popovers that ask (the add-to-board panel) stay inside it, off the sidebar. */}
        <div className="flex-1" {...{ [POPOVER_BOUNDARY_ATTRIBUTE]: '' }}>
          {children}
        </div>
        <SiteFooter />
      </div>
      <MobileDrawer open={sidebar.drawerOpen} onOpenChange={sidebar.setDrawerOpen}>
        <AppSidebar collapsed={false} variant="drawer" />
      </MobileDrawer>
    </div>
  );
}
