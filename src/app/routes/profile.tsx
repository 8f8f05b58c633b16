import { Button } from '../../components/ui/button.tsx';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import { useSession } from '../../lib/auth-session.tsx';
import { ACCOUNT_TEXTS } from '../../lib/account-texts.ts';
import { AccountInformationCard } from '../../features/auth/components/account-information-card.tsx';
import { ChangePasswordCard } from '../../features/auth/components/change-password-card.tsx';
import { ProfileCard } from '../../features/auth/components/profile-card.tsx';
import { ProfileInformationCard } from '../../features/auth/components/profile-information-card.tsx';
import { useEmailChangeLanding } from '../../features/auth/hooks/use-email-change-landing.ts';
import { useSignOut } from '../../features/auth/hooks/use-sign-out.ts';
import { SiteLayout } from '../layout/site-layout.tsx';
import { ProfileSubscriptionCard } from './profile-subscription-card.tsx';
import { MAIN_CONTENT_ID } from '../../lib/constants.ts';

/** /profile (guarded): the account's settings in cards. */
export function ProfilePage() {
  const T = ACCOUNT_TEXTS.profile;
  useDocumentTitle(T.documentTitle);
  const { user } = useSession();
  const signOut = useSignOut();
  useEmailChangeLanding(user !== null);
  if (!user) return null;
  return (
    <SiteLayout>
      <main id={MAIN_CONTENT_ID} className="mx-auto max-w-3xl px-4 pt-6 pb-16 sm:px-6 sm:pt-10">
        <div className="mb-6 sm:mb-8">
          <h1 className="text-2xl font-bold tracking-tight text-neutral-950 sm:text-[32px]">{T.heading}</h1>
          <p className="mt-1 text-[15px] text-neutral-500">{T.subheading}</p>
        </div>
        <div className="space-y-5">
          {/* Keyed by account and address: the fields start from what is saved after a change of either. */}
          <ProfileInformationCard key={`${user.id}:${user.email ?? ''}`} user={user} />
          <ChangePasswordCard />
          <ProfileSubscriptionCard />
          <AccountInformationCard user={user} />
          <ProfileCard title={T.signOut.title} description={T.signOut.description}>
            <Button variant="outline" onClick={() => void signOut()}>
              {T.signOut.button}
            </Button>
          </ProfileCard>
        </div>
      </main>
    </SiteLayout>
  );
}
