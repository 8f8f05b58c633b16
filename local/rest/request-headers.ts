import { RestError } from './rest-error.ts';

/**
 * The request headers PostgREST reads besides auth: Prefer (RFC 7240),
 * Accept (array or single object, stripped nulls), Range and the schema
 * profile headers.
 */
export interface Preferences {
  return?: 'minimal' | 'representation' | 'headers-only';
  count?: 'exact' | 'planned' | 'estimated';
  resolution?: 'merge-duplicates' | 'ignore-duplicates';
  missing?: 'default' | 'null';
  tx?: 'commit' | 'rollback';
  handling?: 'strict' | 'lenient';
  timezone?: string;
  maxAffected?: number;
  /** Applied preferences, echoed in Preference-Applied. */
  applied: string[];
}

const KNOWN_VALUES: Record<string, string[]> = {
  return: ['minimal', 'representation', 'headers-only'],
  count: ['exact', 'planned', 'estimated'],
  resolution: ['merge-duplicates', 'ignore-duplicates'],
  missing: ['default', 'null'],
  tx: ['commit', 'rollback'],
  handling: ['strict', 'lenient'],
};

export function parsePreferences(header: string | null): Preferences {
  const preferences: Preferences = { applied: [] };
  const invalid: string[] = [];
  const set = preferences as unknown as Record<string, unknown>;
  for (const raw of (header ?? '').split(',')) {
    const token = raw.trim();
    if (!token) continue;
    const [key = '', value = ''] = token.split('=', 2).map((part) => part.trim());
    if (KNOWN_VALUES[key]?.includes(value)) {
      set[key] = value;
    } else if (key === 'timezone' && value) {
      preferences.timezone = value;
    } else if (key === 'max-affected' && /^\d+$/.test(value)) {
      preferences.maxAffected = Number(value);
    } else {
      invalid.push(token);
    }
  }
  if (preferences.handling === 'strict' && invalid.length) {
    throw new RestError(400, 'PGRST122', 'Invalid preferences given with handling=strict', `Invalid preferences: ${invalid.join(', ')}`);
  }
  return preferences;
}

export interface AcceptedMedia {
  single: boolean;
  stripNulls: boolean;
}

/** The first media type of Accept that the API can produce; JSON when there is no Accept. */
export function acceptedMedia(header: string | null): AcceptedMedia {
  if (!header || !header.trim()) return { single: false, stripNulls: false };
  for (const entry of header.split(',')) {
    const [type = '', ...parameters] = entry.split(';').map((part) => part.trim().toLowerCase());
    const stripNulls = parameters.includes('nulls=stripped');
    if (type === 'application/vnd.pgrst.object+json' || type === 'application/vnd.pgrst.object') return { single: true, stripNulls };
    if (['*/*', 'application/*', 'application/json', 'application/vnd.pgrst.array+json', 'application/vnd.pgrst.array'].includes(type)) {
      return { single: false, stripNulls };
    }
  }
  throw new RestError(406, 'PGRST107', `None of these media types are available: ${header}`);
}

/** `Range: 0-24` or `Range: 10-` with Range-Unit items: offset and, for a closed range, limit. */
export function requestedRange(request: Request): { offset: number; limit?: number } | null {
  const header = request.headers.get('range');
  if (!header) return null;
  const unit = request.headers.get('range-unit');
  if (unit && unit.toLowerCase() !== 'items') return null;
  const match = /^(?:items=)?(\d+)-(\d*)$/.exec(header.trim());
  if (!match) return null;
  const from = Number(match[1]);
  if (match[2] === '') return { offset: from };
  const to = Number(match[2]);
  if (to < from) {
    throw new RestError(416, 'PGRST103', 'Requested range not satisfiable', `The lower boundary ${from} is greater than the upper boundary ${to}`);
  }
  return { offset: from, limit: to - from + 1 };
}

/** Only the public schema is exposed (Accept-Profile for reads, Content-Profile for writes). */
export function checkProfile(request: Request, schema: string): void {
  const read = request.method === 'GET' || request.method === 'HEAD';
  const profile = request.headers.get(read ? 'accept-profile' : 'content-profile');
  if (profile && profile !== schema) {
    throw new RestError(406, 'PGRST106', `The schema must be one of the following: ${schema}`);
  }
}

/** Content-Range as PostgREST writes it: `0-59/1234`; no rows: a star before the slash; unknown total: a star after it. */
export function contentRange(lower: number, upper: number, total: number | null): string {
  const totalText = total === null ? '*' : String(total);
  return upper < lower ? `*/${totalText}` : `${lower}-${upper}/${totalText}`;
}
