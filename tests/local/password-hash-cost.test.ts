import bcrypt from 'bcryptjs';
import { describe, expect, it } from 'vitest';
import { hashPassword, passwordMatches } from '../../local/auth/passwords.ts';
import { passwordHashCost } from '../../local/config.ts';

describe("bcrypt's cost for stored passwords", () => {
  it('is 10 unless AUTH_PASSWORD_HASH_COST sets a whole number from 4 to 15', () => {
    expect(passwordHashCost({})).toBe(10);
    expect(passwordHashCost({ AUTH_PASSWORD_HASH_COST: '' })).toBe(10);
    expect(passwordHashCost({ AUTH_PASSWORD_HASH_COST: '4' })).toBe(4);
    expect(passwordHashCost({ AUTH_PASSWORD_HASH_COST: '15' })).toBe(15);
    for (const wrong of ['3', '16', '10.5', 'ten']) {
      expect(() => passwordHashCost({ AUTH_PASSWORD_HASH_COST: wrong })).toThrowError(/AUTH_PASSWORD_HASH_COST must be a whole number from 4 to 15/);
    }
  });

  it('is what the stored hashes carry, and a hash of any cost still checks', async () => {
    const cost = passwordHashCost();
    const hash = await hashPassword('correct horse battery');
    expect(bcrypt.getRounds(hash)).toBe(cost);
    expect(await passwordMatches('correct horse battery', hash)).toBe(true);
    expect(await passwordMatches('correct horse batterz', hash)).toBe(false);
    // A password stored at production's cost signs in wherever the cost is lower, and the other way round.
    expect(await passwordMatches('stored at ten', bcrypt.hashSync('stored at ten', 10))).toBe(true);
  });
});
