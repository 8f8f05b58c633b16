import { lazy, Suspense, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { ShareIcon } from '../../components/ui/icons.tsx';
import { SHELL_TEXTS } from '../../lib/shell-texts.ts';

/** The Share dialog is a chunk of its own, fetched the first time it opens. */
const ShareDialog = lazy(() => import('../../components/share-dialog.tsx').then((module) => ({ default: module.ShareDialog })));

const iconClasses =
  'inline-flex h-9 w-9 items-center justify-center rounded-lg text-neutral-600 transition-colors hover:bg-neutral-100 hover:text-neutral-950 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-neutral-950';

/** Opens the Share dialog for the page as it is now (its address read when the dialog opens). */
export function ShareButton({ variant = 'icon', className = '' }: { variant?: 'icon' | 'row'; className?: string }) {
  const [url, setUrl] = useState<string | null>(null);
  // Mounted from the first opening on, so closing plays out.
  const [wanted, setWanted] = useState(false);
  const location = useLocation();
  const open = () => {
    setWanted(true);
    setUrl(`${window.location.origin}${location.pathname}${location.search}${location.hash}`);
  };
  return (
    <>
      {variant === 'icon' ? (
        <button type="button" onClick={open} aria-label={SHELL_TEXTS.header.share} title={SHELL_TEXTS.header.share} className={`${iconClasses} ${className}`}>
          <ShareIcon className="h-[18px] w-[18px]" />
        </button>
      ) : (
        <button type="button" onClick={open} className={className}>
          <ShareIcon className="h-[18px] w-[18px] shrink-0 text-neutral-500" />
          <span>{SHELL_TEXTS.header.share}</span>
        </button>
      )}
      {wanted && (
        <Suspense fallback={null}>
          <ShareDialog
            open={url !== null}
            onOpenChange={(next) => {
              if (!next) setUrl(null);
            }}
            url={url ?? ''}
            title={document.title}
            copiedDescription={SHELL_TEXTS.toasts.linkCopied.pageDescription}
          />
        </Suspense>
      )}
    </>
  );
}
