import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { signUpWithNextPath } from '../../../lib/auth-redirects.ts';
import { Button, buttonClasses } from '../../../components/ui/button.tsx';
import { SparkIcon } from '../../../components/ui/icons.tsx';
import { SHELL_TEXTS } from '../../../lib/shell-texts.ts';

interface LibraryBottomBarProps {
  isAuthenticated: boolean;
  onSubscribe: () => void;
  /** Shown after the bar's button, in the bar's room rather than floating over the cards (the feature-request link). */
  trailing?: ReactNode;
}

/** The nudge along the bottom for viewers without valid access. */
export function LibraryBottomBar({ isAuthenticated, onSubscribe, trailing }: LibraryBottomBarProps) {
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
        <div className="flex items-center gap-2 sm:gap-3">
          {isAuthenticated ? (
            <Button onClick={onSubscribe} className="flex-1 sm:flex-none">
              {SHELL_TEXTS.bottomBar.subscribe}
            </Button>
          ) : (
            <Link to={signUpWithNextPath(location)} className={buttonClasses('primary', 'md', 'flex-1 sm:flex-none')}>
              {SHELL_TEXTS.bottomBar.createAccount}
            </Link>
          )}
          {trailing}
        </div>
      </div>
    </div>
  );
}
