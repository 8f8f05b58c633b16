import { Link } from 'react-router-dom';
import { Popover } from '../../components/ui/popover.tsx';
import { useSession } from '../../lib/auth-session.tsx';
import { SHELL_TEXTS } from '../../lib/shell-texts.ts';
import { ProfileAvatar } from '../../features/auth/components/profile-avatar.tsx';
import { profileIdentityOf } from '../../features/auth/hooks/profile-identity.ts';
import { useSignOut } from '../../features/auth/hooks/use-sign-out.ts';

const item =
  'block w-full rounded-lg px-3 py-2 text-left text-sm text-neutral-800 hover:bg-neutral-100 focus-visible:bg-neutral-100 focus-visible:outline-2 focus-visible:outline-neutral-950';

/** The signed-in user's menu: their name and email, Profile Settings and Logout. Opens and works by keyboard. */
export function UserMenu() {
  const { user } = useSession();
  const logout = useSignOut();
  const identity = profileIdentityOf(user);
  return (
    <Popover
      renderTrigger={(trigger) => (
        <button
          {...trigger}
          className="inline-flex h-9 w-9 items-center justify-center rounded-full ring-offset-2 hover:ring-2 hover:ring-neutral-300 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-neutral-950"
        >
          <ProfileAvatar identity={identity} size={36} />
          <span className="sr-only">{identity.displayName}</span>
        </button>
      )}
      content={{ align: 'end', sideOffset: 8, className: 'z-40 w-56 rounded-2xl border border-neutral-200 bg-white p-1.5 shadow-xl' }}
    >
      <div className="px-3 py-2">
        <p className="truncate text-sm font-semibold text-neutral-950">{identity.displayName}</p>
        <p className="truncate text-xs text-neutral-600">{user?.email}</p>
      </div>
      <Link to="/profile" className={item}>
        {SHELL_TEXTS.header.profileSettings}
      </Link>
      <button type="button" onClick={() => void logout()} className={item}>
        {SHELL_TEXTS.header.logout}
      </button>
    </Popover>
  );
}
