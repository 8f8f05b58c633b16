import { useEffect, useState, type ReactNode } from 'react';
import { Link, NavLink, useLocation } from 'react-router-dom';
import { Button, buttonClasses } from '../../components/ui/button.tsx';
import { HeartIcon, SparkIcon } from '../../components/ui/icons.tsx';
import { useSession } from '../../lib/auth-session.tsx';
import { SHELL_TEXTS } from '../../lib/shell-texts.ts';
import { useSignOut } from '../../features/auth/hooks/use-sign-out.ts';
import { useEntitlement } from '../../features/billing/hooks/use-entitlement.tsx';
import { useUpgradeFlow } from '../../features/billing/hooks/use-upgrade-flow.ts';
import { MobileDrawer } from './mobile-drawer.tsx';
import { ShareButton } from './share-button.tsx';
import { UserMenu } from './user-menu.tsx';
import { LibraryIcon, LogoutIcon, MenuIcon, UserIcon } from './shell-icons.tsx';

const navLink = ({ isActive }: { isActive: boolean }) =>
  `rounded-lg px-3 py-1.5 text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-neutral-950 ${
    isActive ? 'bg-neutral-100 text-neutral-950' : 'text-neutral-600 hover:text-neutral-950'
  }`;

const menuRow = ({ isActive }: { isActive: boolean }) =>
  `flex h-10 w-full items-center gap-3 rounded-lg px-2.5 text-sm transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-neutral-950 ${
    isActive ? 'bg-neutral-100 font-semibold text-neutral-950' : 'text-neutral-700 hover:bg-neutral-100 hover:text-neutral-950'
  }`;

/**
 * The top bar of the plain layout: logo, Library and Favorites (the current one
 * highlighted), Upgrade Plan, Share, and the account controls; under 768 px a
 * menu repeats them in a drawer. A page may put a control of its own before Share (`action`).
 */
export function SiteHeader({ action }: { action?: ReactNode } = {}) {
  const { session } = useSession();
  const entitlement = useEntitlement();
  const startUpgrade = useUpgradeFlow();
  const logout = useSignOut();
  const location = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const showUpgrade = entitlement.entitlementLoaded && entitlement.isAuthenticated && !entitlement.isSubscribed;

  // A navigation from the menu closes it.
  useEffect(() => setMenuOpen(false), [location.pathname, location.search]);

  return (
    <header className="sticky top-0 z-30 border-b border-neutral-200/70 bg-white">
      <div className="mx-auto flex h-14 max-w-[1600px] items-center gap-2 px-4 sm:h-16 sm:px-6 lg:px-8">
        <button
          type="button"
          onClick={() => setMenuOpen(true)}
          aria-label={SHELL_TEXTS.shell.openMenu}
          aria-expanded={menuOpen}
          aria-haspopup="dialog"
          className="-ml-2 inline-flex h-9 w-9 items-center justify-center rounded-lg text-neutral-600 hover:bg-neutral-100 hover:text-neutral-950 focus-visible:outline-2 focus-visible:outline-neutral-950 md:hidden"
        >
          <MenuIcon className="h-5 w-5" />
        </button>
        <Link to="/library" className="mr-2 flex items-center gap-2 text-neutral-950" aria-label="Obyect – Library">
          <img src="/favicon.svg" alt="" className="h-7 w-7" />
          <span className="text-[17px] font-bold tracking-tight">obyect</span>
        </Link>
        <nav aria-label={SHELL_TEXTS.shell.primaryNavigation} className="hidden items-center gap-1 md:flex">
          <NavLink to="/library" className={navLink}>
            {SHELL_TEXTS.header.library}
          </NavLink>
          <NavLink to="/favorites" className={navLink}>
            {SHELL_TEXTS.header.favorites}
          </NavLink>
        </nav>
        <div className="ml-auto flex items-center gap-1.5 sm:gap-2">
          {showUpgrade && (
            <Button size="sm" onClick={startUpgrade} className="hidden sm:inline-flex">
              <SparkIcon className="h-3.5 w-3.5 text-amber-300" />
              {SHELL_TEXTS.header.upgradePlan}
            </Button>
          )}
          {action}
          <ShareButton className="hidden md:inline-flex" />
          {session ? (
            <UserMenu />
          ) : (
            <>
              <Link to="/auth/signin" className={buttonClasses('ghost', 'sm', 'hidden sm:inline-flex')}>
                {SHELL_TEXTS.header.login}
              </Link>
              <Link to="/auth/signup" className={buttonClasses('primary', 'sm')}>
                {SHELL_TEXTS.header.signUp}
              </Link>
            </>
          )}
        </div>
      </div>
      <MobileDrawer open={menuOpen} onOpenChange={setMenuOpen}>
        <div className="flex h-14 shrink-0 items-center px-4">
          <Link to="/library" aria-label="Obyect – Library" className="flex items-center gap-2 text-neutral-950">
            <img src="/favicon.svg" alt="" className="h-8 w-8" />
            <span className="text-lg font-bold tracking-tight">obyect</span>
          </Link>
        </div>
        <nav aria-label={SHELL_TEXTS.shell.menuTitle} className="flex-1 space-y-0.5 overflow-y-auto px-3 pb-3">
          <NavLink to="/library" className={menuRow}>
            <LibraryIcon className="h-[18px] w-[18px]" />
            {SHELL_TEXTS.header.library}
          </NavLink>
          <NavLink to="/favorites" className={menuRow}>
            <HeartIcon className="h-[18px] w-[18px]" />
            {SHELL_TEXTS.header.favorites}
          </NavLink>
          {showUpgrade && (
            <button type="button" onClick={startUpgrade} className={menuRow({ isActive: false })}>
              <SparkIcon className="h-[18px] w-[18px] text-amber-500" />
              {SHELL_TEXTS.header.upgradePlan}
            </button>
          )}
          {session ? (
            <>
              <NavLink to="/profile" className={menuRow}>
                <UserIcon className="h-[18px] w-[18px]" />
                {SHELL_TEXTS.header.profileSettings}
              </NavLink>
              <button type="button" onClick={() => void logout()} className={menuRow({ isActive: false })}>
                <LogoutIcon className="h-[18px] w-[18px]" />
                {SHELL_TEXTS.header.logout}
              </button>
            </>
          ) : (
            <div className="flex gap-2 pt-3">
              <Link to="/auth/signin" className={buttonClasses('outline', 'md', 'flex-1')}>
                {SHELL_TEXTS.header.login}
              </Link>
              <Link to="/auth/signup" className={buttonClasses('primary', 'md', 'flex-1')}>
                {SHELL_TEXTS.header.signUp}
              </Link>
            </div>
          )}
          <div className="pt-2">
            <ShareButton variant="row" className={menuRow({ isActive: false })} />
          </div>
        </nav>
      </MobileDrawer>
    </header>
  );
}
