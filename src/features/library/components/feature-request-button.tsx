import { MessageIcon } from '../../../components/ui/icons.tsx';
import { env } from '../../../lib/env.ts';
import { LIBRARY_TEXTS } from '../../../lib/library-texts.ts';

/**
 * Where the button sits: in the library's bottom bar; floating in the page's right gutter, kept clear of the cards
 * (from 768 px); or in the header beside Share, under 768 px without the bar, where one column leaves no free place.
 */
export type FeatureRequestPlacement = 'bar' | 'floating' | 'header';

const LOOK: Record<FeatureRequestPlacement, { button: string; label: string }> = {
  bar: {
    button: 'h-10 w-10 rounded-full border border-neutral-200 bg-white text-neutral-700 hover:bg-neutral-100 hover:text-neutral-950',
    label: 'right-0 bottom-full mb-2',
  },
  floating: {
    button: 'h-10 w-10 rounded-full bg-neutral-950 text-white shadow-lg shadow-neutral-950/20 hover:bg-neutral-800',
    label: 'top-1/2 right-full mr-2 -translate-y-1/2',
  },
  header: {
    button: 'h-9 w-9 rounded-lg text-neutral-600 hover:bg-neutral-100 hover:text-neutral-950',
    label: 'top-full right-0 mt-2',
  },
};

/** The link to the feedback form, in a new tab: a round icon whose label shows on hover and focus. */
export function FeatureRequestButton({ placement }: { placement: FeatureRequestPlacement }) {
  const look = LOOK[placement];
  return (
    <a
      href={env.feedbackFormUrl}
      target="_blank"
      rel="noopener noreferrer"
      aria-label={LIBRARY_TEXTS.requestFeature}
      data-placement={placement}
      className={`group relative inline-flex shrink-0 items-center justify-center transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-neutral-950 ${look.button}`}
    >
      <MessageIcon className="h-[18px] w-[18px]" />
      <span
        aria-hidden="true"
        className={`pointer-events-none absolute z-10 rounded-lg bg-neutral-950 px-2.5 py-1.5 text-xs font-medium whitespace-nowrap text-white opacity-0 shadow-lg transition-opacity group-hover:opacity-100 group-focus-visible:opacity-100 ${look.label}`}
      >
        {LIBRARY_TEXTS.requestFeature}
      </span>
    </a>
  );
}

/**
 * The floating button at the end of the library's page: sticky at the window's bottom in the right gutter the page
 * keeps for it while the grid passes, and resting above the footer at the grid's end.
 */
export function FloatingFeatureRequest() {
  return (
    <div className="pointer-events-none sticky bottom-4 z-30 h-0">
      <div className="pointer-events-auto absolute right-[-3.25rem] bottom-0">
        <FeatureRequestButton placement="floating" />
      </div>
    </div>
  );
}
