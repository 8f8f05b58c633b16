/** Benchmark settings read from the environment: a bad value stops the run with its name, before any work. */
export function intFromEnv(name: string, fallback: number, min = 1, env: NodeJS.ProcessEnv = process.env): number {
  const value = env[name];
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < min) throw new Error(`${name} must be an integer of at least ${min}, got ${value}`);
  return parsed;
}

/** A comma-separated list, trimmed; null when the variable is unset or empty (no filter). */
export function listFromEnv(name: string, env: NodeJS.ProcessEnv = process.env): string[] | null {
  const items = (env[name] ?? '').split(',').map((item) => item.trim()).filter(Boolean);
  return items.length ? items : null;
}
