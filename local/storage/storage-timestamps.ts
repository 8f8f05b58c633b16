/** The timestamp columns Storage answers with. */
const TIMESTAMP_KEYS = ['created_at', 'updated_at', 'last_accessed_at'] as const;

/**
 * A timestamp as hosted Storage writes it: ISO 8601 in UTC with milliseconds ('2026-12-08T10:00:00.123Z'). The
 * database hands it over as text ('2026-12-08 10:00:00.123456+00', in the session's zone), which clients would
 * each read their own way. Anything that is not a time stays as it is.
 */
export function isoTimestamp(value: unknown): unknown {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? value : value.toISOString();
  if (typeof value !== 'string') return value;
  const parsed = new Date(value.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00'));
  return Number.isNaN(parsed.getTime()) ? value : parsed.toISOString();
}

/** A row of storage.objects or storage.buckets with its timestamps as Storage writes them. */
export function withIsoTimestamps<Row extends object>(row: Row): Row {
  const out = { ...row } as Record<string, unknown>;
  for (const key of TIMESTAMP_KEYS) if (key in out) out[key] = isoTimestamp(out[key]);
  return out as Row;
}
