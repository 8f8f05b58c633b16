import { toast } from '../lib/toast.ts';
import { AD_DETAIL_TEXTS } from '../lib/ad-detail-texts.ts';
import { SHELL_TEXTS } from '../lib/shell-texts.ts';
import { Dialog, DialogContent } from './ui/dialog.tsx';
import { LinkIcon, PhoneIcon, ShareIcon } from './ui/icons.tsx';

interface ShareDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  url: string;
  title: string;
  /** The description of the 'Link copied' toast after Copy URL. */
  copiedDescription: string;
}

/** The older way to copy, for browsers without the async clipboard (pages served over plain http). */
function copyWithSelection(text: string): boolean {
  const field = document.createElement('textarea');
  field.value = text;
  field.setAttribute('readonly', '');
  field.style.position = 'fixed';
  field.style.opacity = '0';
  document.body.appendChild(field);
  const focused = document.activeElement as HTMLElement | null;
  field.select();
  try {
    return document.execCommand('copy');
  } catch {
    return false;
  } finally {
    field.remove();
    focused?.focus();
  }
}

/** Puts the text on the clipboard; false when the browser refused. */
export async function writeToClipboard(text: string): Promise<boolean> {
  if (navigator.clipboard?.writeText) {
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch {
      // Refused (no permission, document not focused): the older way may still work.
    }
  }
  return copyWithSelection(text);
}

/** Copies the link with the spec's toasts: 'Link copied' (with the given description) or 'Copy failed'. */
export async function copyLink(url: string, description: string): Promise<boolean> {
  if (await writeToClipboard(url)) {
    toast.success(SHELL_TEXTS.toasts.linkCopied.title, { description });
    return true;
  }
  toast.error(SHELL_TEXTS.toasts.copyFailed.title);
  return false;
}

/** The native share sheet where there is one; otherwise the link goes to the clipboard. */
export async function shareNatively(url: string, title: string): Promise<boolean> {
  if (typeof navigator.share !== 'function') {
    return copyLink(url, SHELL_TEXTS.toasts.linkCopied.nativeUnsupported);
  }
  try {
    await navigator.share({ url, title });
    return true;
  } catch (error) {
    // Dismissing the share sheet is not a failure.
    if (error instanceof DOMException && error.name === 'AbortError') return false;
    toast.error(SHELL_TEXTS.toasts.shareFailed.title, { description: SHELL_TEXTS.toasts.shareFailed.description });
    return false;
  }
}

const optionClasses =
  'flex w-full items-center gap-3 rounded-xl border border-neutral-200 px-4 py-3 text-left text-sm font-medium text-neutral-900 transition-colors hover:border-neutral-300 hover:bg-neutral-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-neutral-950';

/**
 * Share a link: copy it, or hand it to the Apple or Android share sheet. A
 * modal dialog: focus stays inside while it is open and goes back to what
 * opened it when it closes.
 */
export function ShareDialog({ open, onOpenChange, url, title, copiedDescription }: ShareDialogProps) {
  const finish = (done: boolean) => {
    if (done) onOpenChange(false);
  };
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent title={AD_DETAIL_TEXTS.share.title} description={AD_DETAIL_TEXTS.share.description}>
        <p data-testid="share-url" className="mt-5 rounded-xl bg-neutral-100 px-3 py-2.5 font-mono text-xs break-all text-neutral-700">
          {url}
        </p>
        <div className="mt-4 space-y-2">
          <button type="button" className={optionClasses} onClick={() => void copyLink(url, copiedDescription).then(finish)}>
            <LinkIcon className="h-4 w-4 text-neutral-500" />
            {AD_DETAIL_TEXTS.share.copyUrl}
          </button>
          <button type="button" className={optionClasses} onClick={() => void shareNatively(url, title).then(finish)}>
            <ShareIcon className="h-4 w-4 text-neutral-500" />
            {AD_DETAIL_TEXTS.share.shareApple}
          </button>
          <button type="button" className={optionClasses} onClick={() => void shareNatively(url, title).then(finish)}>
            <PhoneIcon className="h-4 w-4 text-neutral-500" />
            {AD_DETAIL_TEXTS.share.shareAndroid}
          </button>
        </div>
      </DialogContent>
    </Dialog>
  );
}
