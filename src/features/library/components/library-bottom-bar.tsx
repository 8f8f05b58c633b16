import { Link, useLocation } from 'react-router-dom';
import { signUpWithNextPath } from '../../../lib/auth-redirects.ts';
import { Button, buttonClasses } from '../../../components/ui/button.tsx';
import { SparkIcon } from '../../../components/ui/icons.tsx';
import { SHELL_TEXTS } from '../../../lib/shell-texts.ts';

interface LibraryBottomBarProps {
  isAuthenticated: boolean;
  onSubscribe: () => void;
}

/** The nudge along the bottom for viewers without valid access. */
export function LibraryBottomBar({ isAuthenticated, onSubscribe }: LibraryBottomBarProps) {
  const location = useLocation();
  return (
    <div
      role="region"
      aria-label={SHELL_TEXTS.bottomBar.title}
      className="fixed inset-x-0 bottom-0 z-30 md:left-[var(--app-sidebar-width,0px)] border-t border-neutral-200/80 bg-white"
    >
      <div className="mx-auto flex max-w-[1600px] flex-col items-stretch gap-2 px-4 py-2.5 sm:flex-row sm:items-center sm:justify-between sm:gap-3 sm:px-6 sm:py-3 lg:px-8">
        <p className="flex items-center justify-center gap-2 text-[13px] font-semibold text-neutral-950 sm:justify-start sm:text-[15px]">
          <SparkIcon className="h-4 w-4 shrink-0 text-amber-500" />
          {SHELL_TEXTS.bottomBar.title}
        </p>
        {isAuthenticated ? (
          <Button onClick={onSubscribe}>{SHELL_TEXTS.bottomBar.subscribe}</Button>
        ) : (
          <Link to={signUpWithNextPath(location)} className={buttonClasses('primary', 'md')}>
            {SHELL_TEXTS.bottomBar.createAccount}
          </Link>
        )}
      </div>
    </div>
  );
}
