import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { DOCUMENT_DESCRIPTION_MAX_LENGTH, DOCUMENT_TITLE_MAX_LENGTH } from '../lib/constants.ts';

/** What a page says about itself to the browser, search engines and link previews. */
export interface PageMetadata {
  title: string;
  description?: string;
  /** An absolute or root-relative image URL for link previews. */
  image?: string | null;
  /** Open Graph type: 'website' for pages, 'article' for one ad. */
  type?: 'website' | 'article';
}

export const SITE_NAME = 'Obyect';
/** The description of a page that has none of its own. */
export const DEFAULT_DESCRIPTION = 'Browse thousands of winning direct-to-consumer ad creatives by brand, category, type and tag.';

/** Cuts a text to a maximum length on a word boundary where one is near, ending with an ellipsis. */
export function cutText(text: string, max: number): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (clean.length <= max) return clean;
  const room = clean.slice(0, max - 1);
  const space = room.lastIndexOf(' ');
  return `${(space > max * 0.6 ? room.slice(0, space) : room).trimEnd()}…`;
}

type MetaKey = { attribute: 'name' | 'property'; key: string };

const META_TAGS = {
  description: { attribute: 'name', key: 'description' },
  ogTitle: { attribute: 'property', key: 'og:title' },
  ogDescription: { attribute: 'property', key: 'og:description' },
  ogType: { attribute: 'property', key: 'og:type' },
  ogUrl: { attribute: 'property', key: 'og:url' },
  ogSiteName: { attribute: 'property', key: 'og:site_name' },
  ogImage: { attribute: 'property', key: 'og:image' },
  twitterCard: { attribute: 'name', key: 'twitter:card' },
} as const satisfies Record<string, MetaKey>;

type MetaValues = Record<keyof typeof META_TAGS, string | null> & { title: string };

function metaElement({ attribute, key }: MetaKey): HTMLMetaElement | null {
  return document.head.querySelector<HTMLMetaElement>(`meta[${attribute}="${key}"]`);
}

function readValues(): MetaValues {
  const values = { title: document.title } as MetaValues;
  for (const [name, tag] of Object.entries(META_TAGS) as Array<[keyof typeof META_TAGS, MetaKey]>) {
    values[name] = metaElement(tag)?.getAttribute('content') ?? null;
  }
  return values;
}

function writeValues(values: MetaValues): void {
  document.title = values.title;
  for (const [name, tag] of Object.entries(META_TAGS) as Array<[keyof typeof META_TAGS, MetaKey]>) {
    const value = values[name];
    let element = metaElement(tag);
    if (value === null) {
      element?.remove();
      continue;
    }
    if (!element) {
      element = document.createElement('meta');
      element.setAttribute(tag.attribute, tag.key);
      document.head.appendChild(element);
    }
    element.setAttribute('content', value);
  }
}

/** The tags a page's metadata stands for: title and description cut to the spec's maximum lengths. */
export function metadataValues(metadata: PageMetadata, url: string): MetaValues {
  const title = cutText(metadata.title, DOCUMENT_TITLE_MAX_LENGTH);
  const description = cutText(metadata.description ?? DEFAULT_DESCRIPTION, DOCUMENT_DESCRIPTION_MAX_LENGTH);
  const image = metadata.image ? new URL(metadata.image, window.location.origin).toString() : null;
  return {
    title,
    description,
    ogTitle: title,
    ogDescription: description,
    ogType: metadata.type ?? 'website',
    ogUrl: url,
    ogSiteName: SITE_NAME,
    ogImage: image,
    twitterCard: image ? 'summary_large_image' : 'summary',
  };
}

/**
 * Sets the document title, description and Open Graph tags of the page while it
 * is shown; when it goes (an ad's modal closing), the previous page's come back.
 */
export function usePageMetadata(metadata: PageMetadata): void {
  const { title, description, image, type } = metadata;
  const { pathname, search } = useLocation();
  useEffect(() => {
    const previous = readValues();
    writeValues(metadataValues({ title, description, image, type }, `${window.location.origin}${pathname}${search}`));
    return () => writeValues(previous);
  }, [title, description, image, type, pathname, search]);
}

/** Title (and optionally description) only; the rest as usePageMetadata sets it. */
export function useDocumentTitle(title: string, description?: string): void {
  usePageMetadata({ title, description });
}
