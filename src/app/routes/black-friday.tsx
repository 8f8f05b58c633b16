import { Link, useNavigate } from 'react-router-dom';
import { buttonClasses } from '../../components/ui/button.tsx';
import { useSession } from '../../lib/auth-session.tsx';
import { LIBRARY_TEXTS } from '../../lib/library-texts.ts';
import { useUpgradeFlow } from '../../features/billing/hooks/use-upgrade-flow.ts';
import { useCatalog } from '../../features/library/api/get-catalog.ts';
import { ExclusiveAccessDialog } from '../../features/themed-boards/components/exclusive-access-dialog.tsx';
import { ThemedBoardView } from '../../features/themed-boards/components/themed-board-view.tsx';
import { SiteLayout } from '../layout/site-layout.tsx';
import { useSignInToSave } from './top-picks.tsx';

/**
 * /black-friday: for signed-in users (all clear with the profile's Black Friday
 * access or a subscription); anonymous visitors get the exclusive-access dialog.
 */
export function BlackFridayPage() {
  const { session, loading } = useSession();
  const navigate = useNavigate();
  const brands = useCatalog('brands');
  const categories = useCatalog('categories');
  const startUpgrade = useUpgradeFlow();
  const addToBoard = useSignInToSave();
  const anonymous = !loading && !session;

  const blocked = anonymous ? (
    <div className="flex flex-col items-center gap-4 rounded-2xl border border-dashed border-neutral-300 bg-white px-6 py-16 text-center">
      <p className="max-w-md text-[15px] text-neutral-600">{LIBRARY_TEXTS.blackFridayDialog.body}</p>
      <Link to="/auth/signup" className={buttonClasses('primary', 'md')}>
        {LIBRARY_TEXTS.blackFridayDialog.confirm}
      </Link>
      <ExclusiveAccessDialog open onCancel={() => navigate('/library')} onGetAccess={() => navigate('/auth/signup')} />
    </div>
  ) : undefined;

  return (
    <SiteLayout>
      <ThemedBoardView
        board="black-friday"
        brands={brands}
        categories={categories}
        canList={session !== null}
        blocked={blocked}
        onLockedClick={startUpgrade}
        onAddToBoard={addToBoard}
      />
    </SiteLayout>
  );
}
