import { MessageIcon } from '../../../components/ui/icons.tsx';
import { env } from '../../../lib/env.ts';
import { LIBRARY_TEXTS } from '../../../lib/library-texts.ts';

/** The floating link to the feedback form, in a new tab; raised above the bottom bar when there is one. */
export function FeatureRequestButton({ raised }: { raised: boolean }) {
  return (
    <a
      href={env.feedbackFormUrl}
      target="_blank"
      rel="noopener noreferrer"
      aria-label={LIBRARY_TEXTS.requestFeature}
      className={`fixed right-4 z-30 inline-flex h-11 items-center gap-2 rounded-full bg-neutral-950 px-4 text-sm font-medium text-white shadow-lg shadow-neutral-950/20 transition-[transform,bottom] hover:-translate-y-0.5 hover:bg-neutral-800 sm:right-6 ${
        raised ? 'bottom-28 sm:bottom-20' : 'bottom-5 sm:bottom-6'
      }`}
    >
      <MessageIcon className="h-4 w-4" />
      <span className="hidden sm:inline">{LIBRARY_TEXTS.requestFeature}</span>
    </a>
  );
}
