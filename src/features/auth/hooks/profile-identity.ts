import type { User } from '@supabase/supabase-js';
import { SHELL_TEXTS } from '../../../lib/shell-texts.ts';

export interface ProfileIdentity {
  /** The full name, else the email's local part, else 'Profile'. */
  displayName: string;
  fullName: string;
  avatarUrl: string | null;
  initials: string;
}

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/** How the profile names and pictures a user, from the metadata the sign-up and Google store. */
export function profileIdentityOf(user: User | null): ProfileIdentity {
  const metadata = (user?.user_metadata ?? {}) as Record<string, unknown>;
  const fullName = text(metadata.full_name) || text(metadata.name) || [text(metadata.first_name), text(metadata.last_name)].filter(Boolean).join(' ');
  const emailPrefix = user?.email?.split('@')[0] ?? '';
  const displayName = fullName || emailPrefix || SHELL_TEXTS.shell.profileFallbackName;
  const avatarUrl = text(metadata.avatar_url) || text(metadata.picture) || null;
  const words = displayName.split(/\s+/).filter(Boolean);
  const initials = ((words[0]?.[0] ?? '') + (words.length > 1 ? (words[words.length - 1]?.[0] ?? '') : '')).toUpperCase() || 'P';
  return { displayName, fullName, avatarUrl, initials };
}
