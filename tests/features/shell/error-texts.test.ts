import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApiError, errorTextOf } from '../../../src/lib/api-error.ts';
import { API_ERROR_TEXTS } from '../../../src/lib/api-error-texts.ts';

const SRC = path.resolve(import.meta.dirname, '../../../src');

/**
 * Screens (the .tsx files) show our sentences for failures, never an error's
 * own message: a server's, a library's or the browser's text would reach the
 * user. The one exception is checkout's CheckoutError, which carries only the
 * sentences create-checkout writes for the buyer (src/features/billing/api/create-checkout.ts).
 */
const ALLOWED = [/error instanceof CheckoutError \? error\.message/];

async function screens(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const files = await Promise.all(
    entries.map((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return screens(full);
      return Promise.resolve(entry.name.endsWith('.tsx') ? [full] : []);
    }),
  );
  return files.flat();
}

describe('error texts on screen', () => {
  it("no screen shows an error's own message", async () => {
    const offending: string[] = [];
    for (const file of await screens(SRC)) {
      const lines = (await readFile(file, 'utf8')).split('\n');
      lines.forEach((line, index) => {
        if (/\b(error|err|failure)\??\.message\b/.test(line) && !ALLOWED.some((pattern) => pattern.test(line))) {
          offending.push(`${path.relative(SRC, file)}:${index + 1}: ${line.trim()}`);
        }
      });
    }
    expect(offending).toEqual([]);
  });

  it('gives our sentence for each stable code and the fallback for anything else', () => {
    expect(errorTextOf(new ApiError('duplicate key value violates unique constraint "brands_name_key"', '23505'))).toBe('That name is already taken. Choose another one.');
    expect(errorTextOf(new ApiError('new row violates check constraint "tags_name_length"', 'tags_name_length'))).toBe('Names can be up to 80 characters long.');
    expect(errorTextOf(new ApiError('"Lumora" is still used by 3 ad(s)', 'brand_in_use'))).toBe('This brand is still used by some ads. Give them another brand or delete them first.');
    expect(errorTextOf(new ApiError('something new', 'a_code_we_do_not_know'))).toBe(API_ERROR_TEXTS.apiErrors.fallback);
    expect(errorTextOf(new TypeError('Failed to fetch'))).toBe(API_ERROR_TEXTS.apiErrors.fallback);
    expect(errorTextOf(new TypeError('Failed to fetch'), 'The ads could not be loaded.')).toBe('The ads could not be loaded.');
  });

  it('names every catalogue check and admin refusal the database raises', () => {
    const byCode: Readonly<Record<string, string>> = API_ERROR_TEXTS.apiErrors.byCode;
    for (const kind of ['brands', 'categories', 'tags', 'types', 'hooks']) {
      expect(byCode[`${kind}_name_length`], kind).toBeTruthy();
      expect(byCode[`${kind}_name_not_empty`], kind).toBeTruthy();
    }
    for (const code of ['invalid_facts', 'hook_not_found', 'brand_in_use', 'category_in_use', 'system_tag_protected', 'admin_required', 'too_many_ads', 'no_ads_selected', 'search_too_long', 'too_many_tags']) {
      expect(byCode[code], code).toBeTruthy();
    }
  });
});
