import { readFileSync } from 'node:fs';

/** Functions that Supabase calls without a user JWT: `verify_jwt = false` in supabase/config.toml. */
export function functionsWithoutJwt(configToml: string): Set<string> {
  const names = new Set<string>();
  let current: string | null = null;
  for (const line of configToml.split('\n')) {
    const section = /^\s*\[functions\.([A-Za-z0-9_-]+)\]\s*$/.exec(line);
    if (section) {
      current = section[1]!;
      continue;
    }
    if (/^\s*\[/.test(line)) current = null;
    if (current && /^\s*verify_jwt\s*=\s*false\s*(#.*)?$/.test(line)) names.add(current);
  }
  return names;
}

export function readFunctionsWithoutJwt(configPath: string): Set<string> {
  try {
    return functionsWithoutJwt(readFileSync(configPath, 'utf8'));
  } catch {
    return new Set();
  }
}
