import { useLayoutEffect, useRef, useState } from 'react';
import { adImageUrl } from '../../lib/image-urls.ts';
import { AD_CARD_TEXTS } from '../../lib/ad-card-texts.ts';

/** The one card video playing at a time: a new one stops the one before. */
let playing: { owner: symbol; stop: () => void } | null = null;

function claim(owner: symbol, stop: () => void) {
  if (playing && playing.owner !== owner) playing.stop();
  playing = { owner, stop };
}

function release(owner: symbol) {
  if (playing?.owner === owner) playing = null;
}

/** A card is "mostly in view" from this share of its video's box on. */
export const MOSTLY_IN_VIEW = 0.6;

/** Whether the pointer is over the element now (false where the browser cannot say). */
function isHovered(element: Element): boolean {
  try {
    return element.matches(':hover');
  } catch {
    return false;
  }
}

const canHover = () => typeof window.matchMedia === 'function' && window.matchMedia('(hover: hover) and (pointer: fine)').matches;

/**
 * A clear video ad's preview over its poster: muted and looping while the
 * pointer is over the card or the card has the keyboard's focus (a device
 * that can hover), or while the card is mostly in view (a touch screen), one
 * card at a time. The video element exists only while it plays, so a grid of
 * posters downloads no video; it shows once its first frame plays.
 */
export default function AdCardVideo({ url }: { url: string }) {
  const box = useRef<HTMLDivElement>(null);
  const [active, setActive] = useState(false);
  const [shown, setShown] = useState(false);
  const [failed, setFailed] = useState(false);

  // Attached as the player is put in the page, before anything can happen to it: a passive effect would leave a
  // moment in which a pointer entering the card or the card scrolling into view went unseen.
  useLayoutEffect(() => {
    const element = box.current;
    const card = element?.closest('article');
    if (!element || !card) return;
    const owner = Symbol('card video');
    const stop = () => {
      setActive(false);
      setShown(false);
    };
    const start = () => {
      claim(owner, stop);
      setActive(true);
    };
    const end = () => {
      release(owner);
      stop();
    };
    if (canHover()) {
      const leaveFocus = (event: FocusEvent) => {
        if (!card.contains(event.relatedTarget as Node | null)) end();
      };
      card.addEventListener('pointerenter', start);
      card.addEventListener('pointerleave', end);
      card.addEventListener('focusin', start);
      card.addEventListener('focusout', leaveFocus);
      // The player arrives after its card (a chunk of its own): a pointer or focus already there starts it.
      if (isHovered(card) || card.contains(document.activeElement)) start();
      return () => {
        card.removeEventListener('pointerenter', start);
        card.removeEventListener('pointerleave', end);
        card.removeEventListener('focusin', start);
        card.removeEventListener('focusout', leaveFocus);
        end();
      };
    }
    if (typeof IntersectionObserver !== 'function') return;
    const observer = new IntersectionObserver(
      ([entry]) => {
        if (entry && entry.isIntersecting && entry.intersectionRatio >= MOSTLY_IN_VIEW) start();
        else end();
      },
      { threshold: [0, MOSTLY_IN_VIEW, 1] },
    );
    observer.observe(element);
    return () => {
      observer.disconnect();
      end();
    };
  }, []);

  return (
    <div ref={box} className="pointer-events-none absolute inset-0" data-testid="card-video-box" data-playing={active && shown ? 'true' : 'false'}>
      {active && !failed && (
        <video
          data-testid="card-video"
          src={adImageUrl(url)}
          muted
          autoPlay
          loop
          playsInline
          preload="auto"
          aria-hidden="true"
          tabIndex={-1}
          onPlaying={() => setShown(true)}
          onError={() => setFailed(true)}
          className={`absolute inset-0 h-full w-full object-cover ${shown ? 'opacity-100' : 'opacity-0'}`}
        />
      )}
      {failed && (
        <p role="status" className="absolute inset-x-2 bottom-2 rounded-lg bg-neutral-950/80 px-2 py-1 text-center text-[11px] font-medium text-white">
          {AD_CARD_TEXTS.adVideo.playFailed}
        </p>
      )}
    </div>
  );
}
