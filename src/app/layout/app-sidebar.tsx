import type { ComponentType, ReactNode, SVGProps } from 'react';
import { Link, NavLink } from 'react-router-dom';
import { GiftIcon, HeartIcon, MessageIcon, SparkIcon } from '../../components/ui/icons.tsx';
import { env } from '../../lib/env.ts';
import { useSession } from '../../lib/auth-session.tsx';
import { SHELL_TEXTS } from '../../lib/shell-texts.ts';
import { ProfileAvatar } from '../../features/auth/components/profile-avatar.tsx';
import { profileIdentityOf } from '../../features/auth/hooks/profile-identity.ts';
import { useSignOut } from '../../features/auth/hooks/use-sign-out.ts';
import { useEntitlement } from '../../features/billing/hooks/use-entitlement.tsx';
import { useUpgradeFlow } from '../../features/billing/hooks/use-upgrade-flow.ts';
import { SidebarCollections } from '../../features/boards/components/sidebar-collections.tsx';
import { useIsAdmin } from '../../features/library/api/get-is-admin.ts';
import { AGENCY_URL } from '../../features/shell/shell-links.ts';
import { ShareButton } from './share-button.tsx';
import { CompassIcon, LibraryIcon, LogoutIcon, MailIcon, ShieldIcon, StarIcon, UserIcon } from './shell-icons.tsx';

type Icon = ComponentType<SVGProps<SVGSVGElement>>;

interface AppSidebarProps {
  /** Icons only (the 72 px sidebar). */
  collapsed: boolean;
  /** The mobile drawer adds Profile Settings, Logout and Share. */
  variant: 'sidebar' | 'drawer';
}

const rowBase =
  'flex min-w-0 items-center gap-3 rounded-lg text-sm transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-neutral-950';
const rowShape = (collapsed: boolean) => (collapsed ? 'h-10 w-10 justify-center' : 'h-9 w-full px-2.5');
const idle = 'text-neutral-700 hover:bg-neutral-100 hover:text-neutral-950';
const current = 'bg-neutral-100 font-semibold text-neutral-950';

function NavRow({ to, label, icon: Icon, collapsed }: { to: string; label: string; icon: Icon; collapsed: boolean }) {
  return (
    <NavLink
      to={to}
      aria-label={collapsed ? label : undefined}
      title={collapsed ? label : undefined}
      className={({ isActive }) => `${rowBase} ${rowShape(collapsed)} ${isActive ? current : idle}`}
    >
      <Icon className="h-[18px] w-[18px] shrink-0" />
      {!collapsed && <span className="truncate">{label}</span>}
    </NavLink>
  );
}

function ExternalRow({ href, label, icon: Icon, collapsed, newTab = true }: { href: string; label: string; icon: Icon; collapsed: boolean; newTab?: boolean }) {
  return (
    <a
      href={href}
      {...(newTab ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
      aria-label={collapsed ? label : undefined}
      title={collapsed ? label : undefined}
      className={`${rowBase} ${rowShape(collapsed)} ${idle}`}
    >
      <Icon className="h-[18px] w-[18px] shrink-0 text-neutral-500" />
      {!collapsed && <span className="truncate">{label}</span>}
    </a>
  );
}

function Logo({ collapsed }: { collapsed: boolean }) {
  return (
    <Link
      to="/library"
      aria-label="Obyect – Library"
      className="flex h-10 items-center gap-2 rounded-lg text-neutral-950 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-neutral-950"
    >
      <img src="/favicon.svg" alt="" className="h-8 w-8 shrink-0" />
      {!collapsed && <span className="text-lg font-bold tracking-tight">obyect</span>}
    </Link>
  );
}

function Section({ label, collapsed, children }: { label: string; collapsed: boolean; children: ReactNode }) {
  return (
    <div className={`space-y-0.5 ${collapsed ? 'flex flex-col items-center' : ''}`}>
      {collapsed ? (
        <div role="separator" className="my-2 h-px w-8 bg-neutral-200" />
      ) : (
        <p className="px-2.5 pt-4 pb-1.5 text-xs font-semibold tracking-wide text-neutral-500">{label}</p>
      )}
      {children}
    </div>
  );
}

/**
 * The signed-in app's navigation: logo, the library and themed boards, 'My
 * Obyects:' (Favorites and the collections), Upgrade Plan and the outside links,
 * and the profile card. The same content fills the mobile drawer.
 */
export function AppSidebar({ collapsed, variant }: AppSidebarProps) {
  const { user } = useSession();
  const entitlement = useEntitlement();
  const startUpgrade = useUpgradeFlow();
  const signOut = useSignOut();
  const isAdmin = useIsAdmin(user?.id ?? null);
  const identity = profileIdentityOf(user);
  const showUpgrade = entitlement.entitlementLoaded && entitlement.isAuthenticated && !entitlement.isSubscribed;
  const T = SHELL_TEXTS.shell;

  return (
    <div className="flex h-full min-h-0 flex-col">
      <div className={`flex h-14 shrink-0 items-center sm:h-16 ${collapsed ? 'justify-center' : 'px-4'}`}>
        <Logo collapsed={collapsed} />
      </div>
      <div className={`min-h-0 flex-1 overflow-x-hidden overflow-y-auto pb-3 ${collapsed ? 'px-2' : 'px-3'}`}>
        <nav aria-label={T.primaryNavigation} className={`space-y-0.5 ${collapsed ? 'flex flex-col items-center' : ''}`}>
          <NavRow to="/library" label={T.library} icon={LibraryIcon} collapsed={collapsed} />
          <NavRow to="/black-friday" label={T.blackFriday} icon={GiftIcon} collapsed={collapsed} />
          <NavRow to="/top-picks" label={T.topPicks} icon={StarIcon} collapsed={collapsed} />
          {isAdmin && <NavRow to="/admin" label={T.admin} icon={ShieldIcon} collapsed={collapsed} />}
        </nav>
        <Section label={T.myObyects} collapsed={collapsed}>
          <NavRow to="/favorites" label={T.favorites} icon={HeartIcon} collapsed={collapsed} />
          <div className={collapsed ? 'pt-1' : 'pt-0.5'}>
            <SidebarCollections collapsed={collapsed} />
          </div>
        </Section>
      </div>
      <div className={`shrink-0 space-y-0.5 border-t border-neutral-200/80 py-3 ${collapsed ? 'flex flex-col items-center px-2' : 'px-3'}`}>
        {showUpgrade && (
          <button
            type="button"
            onClick={startUpgrade}
            aria-label={collapsed ? T.upgradePlan : undefined}
            title={collapsed ? T.upgradePlan : undefined}
            className={`${rowBase} ${rowShape(collapsed)} mb-2 justify-center bg-neutral-950 font-medium text-white shadow-sm hover:bg-neutral-800`}
          >
            <SparkIcon className="h-4 w-4 shrink-0 text-amber-300" />
            {!collapsed && T.upgradePlan}
          </button>
        )}
        <ExternalRow href={env.feedbackFormUrl} label={T.requestFeature} icon={MessageIcon} collapsed={collapsed} />
        <ExternalRow href={`mailto:${env.contactEmail}`} label={T.contactUs} icon={MailIcon} collapsed={collapsed} newTab={false} />
        <ExternalRow href={AGENCY_URL} label={T.discoverAgency} icon={CompassIcon} collapsed={collapsed} />
        {variant === 'drawer' && (
          <>
            <NavRow to="/profile" label={T.profileSettings} icon={UserIcon} collapsed={false} />
            <button type="button" onClick={() => void signOut()} className={`${rowBase} ${rowShape(false)} ${idle}`}>
              <LogoutIcon className="h-[18px] w-[18px] shrink-0 text-neutral-500" />
              <span>{T.logout}</span>
            </button>
            <ShareButton variant="row" className={`${rowBase} ${rowShape(false)} ${idle}`} />
          </>
        )}
      </div>
      <div className={`shrink-0 border-t border-neutral-200/80 p-2 ${collapsed ? 'flex justify-center' : ''}`}>
        <Link
          to="/profile"
          data-testid="profile-card"
          title={collapsed ? identity.displayName : undefined}
          className={`flex min-w-0 items-center gap-3 rounded-xl transition-colors hover:bg-neutral-100 focus-visible:outline-2 focus-visible:outline-neutral-950 ${collapsed ? 'p-1' : 'p-2'}`}
        >
          <ProfileAvatar identity={identity} size={36} />
          {collapsed && <span className="sr-only">{identity.displayName}</span>}
          {!collapsed && (
            <span className="min-w-0 flex-1 leading-tight">
              <span className="block truncate text-sm font-semibold text-neutral-950">{user ? identity.displayName : ''}</span>
              <span className="block truncate text-xs text-neutral-500">{user?.email ?? ''}</span>
            </span>
          )}
        </Link>
      </div>
    </div>
  );
}
