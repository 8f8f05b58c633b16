/** Prices in euro with a comma decimal separator, as the spec shows them (€8,95). */
const euro = new Intl.NumberFormat('nl-NL', { style: 'currency', currency: 'EUR', minimumFractionDigits: 2 });

export function formatPrice(cents: number): string {
  return euro.format(cents / 100).replace(/\s/g, '');
}

/** The viewer's languages, English last: numbers and the names of languages and countries read in them. */
function viewerLocales(): string[] {
  const languages = typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language]);
  return [...languages.filter((tag) => typeof tag === 'string' && tag !== ''), 'en'];
}

/** The one way every screen writes a date: the day, the month's short name and the year, in the viewer's language. */
const DATE_PARTS = { day: 'numeric', month: 'short', year: 'numeric' } as const;

const dateFormats = new Map<string, Intl.DateTimeFormat>();

function dateFormat(timeZone: 'local' | 'UTC'): Intl.DateTimeFormat {
  const locales = viewerLocales();
  const key = `${timeZone}|${locales.join(',')}`;
  let format = dateFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locales, timeZone === 'UTC' ? { ...DATE_PARTS, timeZone: 'UTC' } : DATE_PARTS);
    dateFormats.set(key, format);
  }
  return format;
}

/** A moment's calendar date in the viewer's time zone and language: 'Dec 3, 2026' (en-US), '3 Dec 2026' (en-GB), '3. Dez. 2026' (de). */
export function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : dateFormat('local').format(date);
}

/** A date without a time (YYYY-MM-DD) as formatDate writes dates, the same day in every time zone. */
export function formatDay(isoDay: string): string {
  const date = new Date(`${isoDay}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? '' : dateFormat('UTC').format(date);
}

/** A count as the viewer writes numbers: 1,284 (en), 1.284 (de). */
export function formatCount(count: number): string {
  return new Intl.NumberFormat(viewerLocales()).format(count);
}

/** A count rounded to two significant figures, as the viewer writes numbers: 48,213 → 48,000; 123,456 → 120,000. */
export function formatRoughCount(count: number): string {
  return new Intl.NumberFormat(viewerLocales(), { maximumSignificantDigits: 2 }).format(count);
}

const displayNames = new Map<'language' | 'region', Intl.DisplayNames | null>();

function displayNamesOf(type: 'language' | 'region'): Intl.DisplayNames | null {
  if (!displayNames.has(type)) {
    try {
      displayNames.set(type, new Intl.DisplayNames(viewerLocales(), { type, fallback: 'code' }));
    } catch {
      // A browser without Intl.DisplayNames: the codes themselves.
      displayNames.set(type, null);
    }
  }
  return displayNames.get(type)!;
}

function nameOf(type: 'language' | 'region', code: string): string {
  try {
    return displayNamesOf(type)?.of(code) ?? code;
  } catch {
    return code;
  }
}

/** A language's name in the viewer's language: 'de' → 'German' (en), 'Deutsch' (de); the code when unknown. */
export function languageName(code: string): string {
  return nameOf('language', code);
}

/** A country's name in the viewer's language: 'FR' → 'France'; the code when unknown. */
export function countryName(code: string): string {
  return nameOf('region', code);
}
