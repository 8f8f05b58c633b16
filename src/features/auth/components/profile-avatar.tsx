import type { ProfileIdentity } from '../hooks/profile-identity.ts';

/** The user's picture, or their initials on a dark disc. */
export function ProfileAvatar({ identity, size = 64 }: { identity: ProfileIdentity; size?: number }) {
  const style = { width: size, height: size, fontSize: Math.round(size * 0.36) };
  if (identity.avatarUrl) {
    return <img src={identity.avatarUrl} alt="" style={style} referrerPolicy="no-referrer" className="shrink-0 rounded-full object-cover ring-1 ring-neutral-200" />;
  }
  return (
    <span aria-hidden="true" style={style} className="flex shrink-0 items-center justify-center rounded-full bg-neutral-900 font-semibold text-white">
      {identity.initials}
    </span>
  );
}
