import { describe, expect, it } from 'vitest';
import { migrationVersion, newMigration } from '../../scripts/new-migration.ts';

describe('npm run db:new-migration', () => {
  const now = new Date('2027-03-04T05:06:07.890Z');

  it("names the file with the current UTC time to the second, as Supabase's CLI does", () => {
    expect(migrationVersion(now)).toBe('20270304050607');
    expect(newMigration('brand_websites', now, ['20270101000000_baseline.sql']).file).toBe('20270304050607_brand_websites.sql');
  });

  it('starts the file with what it is for and where its result is declared', () => {
    expect(newMigration('brand_websites', now, []).sql).toMatch(/^-- brand websites: .*\n-- .*supabase\/schemas/);
  });

  it('refuses a name that is not snake_case', () => {
    expect(() => newMigration('Brand-Websites', now, [])).toThrow(/snake_case/);
    expect(() => newMigration('', now, [])).toThrow(/snake_case/);
  });

  it('refuses when a migration in the folder is dated at or after now: the new file would sort before it', () => {
    expect(() => newMigration('brand_websites', now, ['20270304050607_other.sql'])).toThrow(/newest migration \(20270304050607\) is not older than now/);
    expect(() => newMigration('brand_websites', now, ['20991231000000_later.sql'])).toThrow(/Fix its date first/);
  });
});
