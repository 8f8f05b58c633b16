/** A value of Stripe's form encoding: text, or nested objects and arrays of it. */
export type FormValue = string | FormValue[] | { [key: string]: FormValue };
export type FormObject = { [key: string]: FormValue };

const KEY = /^([^[\]]+)((?:\[[^[\]]*\])*)$/;

/**
 * Reads Stripe's request parameters (form bodies and query strings alike):
 * `line_items[0][price]=x&expand[0]=y&metadata[user_id]=z` becomes
 * `{ line_items: [{ price: 'x' }], expand: ['y'], metadata: { user_id: 'z' } }`.
 */
export function parseStripeParams(params: URLSearchParams): FormObject {
  const root: FormObject = {};
  for (const [rawKey, value] of params) {
    const match = KEY.exec(rawKey);
    if (!match) throw new Error(`Invalid parameter name: ${rawKey}`);
    const path = [match[1]!, ...[...match[2]!.matchAll(/\[([^[\]]*)\]/g)].map((part) => part[1]!)];
    let container: FormObject | FormValue[] = root;
    for (let index = 0; index < path.length; index += 1) {
      const segment = path[index]!;
      const last = index === path.length - 1;
      const nextIsIndex = !last && /^\d*$/.test(path[index + 1]!);
      const slot = Array.isArray(container) ? (segment === '' ? container.length : Number(segment)) : segment;
      const holder = container as Record<string | number, FormValue>;
      if (last) {
        holder[slot] = value;
      } else {
        const existing = holder[slot];
        if (existing === undefined || typeof existing === 'string') holder[slot] = nextIsIndex ? [] : {};
        container = holder[slot] as FormObject | FormValue[];
      }
    }
  }
  return root;
}

/** Text parameter, or undefined; Stripe sends an empty string to mean "unset". */
export const text = (value: FormValue | undefined): string | undefined => (typeof value === 'string' ? value : undefined);

export const objectParam = (value: FormValue | undefined): FormObject | undefined =>
  value !== undefined && typeof value === 'object' && !Array.isArray(value) ? value : undefined;

/** An array parameter; Stripe's SDK sends arrays with indexes, which may arrive as an object of indexes. */
export function arrayParam(value: FormValue | undefined): FormValue[] {
  if (value === undefined || typeof value === 'string') return [];
  return (Array.isArray(value) ? value : Object.values(value)).filter((item) => item !== undefined);
}

export const booleanParam = (value: FormValue | undefined): boolean | undefined =>
  value === 'true' ? true : value === 'false' ? false : undefined;

export function integerParam(value: FormValue | undefined): number | undefined {
  const raw = text(value);
  if (raw === undefined || raw === '' || !/^-?\d+$/.test(raw)) return undefined;
  return Number(raw);
}
