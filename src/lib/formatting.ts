/** Prices in euro with a comma decimal separator, as the spec shows them (€8,95). */
const euro = new Intl.NumberFormat('nl-NL', { style: 'currency', currency: 'EUR', minimumFractionDigits: 2 });

export function formatPrice(cents: number): string {
  return euro.format(cents / 100).replace(/\s/g, '');
}

const day = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });

/** A calendar date such as '3 Nov 2026'. */
export function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : day.format(date);
}

const calendarDay = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });

/** A date without a time (YYYY-MM-DD) such as '3 Nov 2026', the same day in every time zone. */
export function formatDay(isoDay: string): string {
  const date = new Date(`${isoDay}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? '' : calendarDay.format(date);
}
