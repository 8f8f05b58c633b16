import { randomInt } from 'node:crypto';

/** The Luhn check digit that makes `digits` + it a valid card number. */
function luhnCheckDigit(digits: string): number {
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 0) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return (10 - (sum % 10)) % 10;
}

/**
 * A card number no other test uses: 16 digits, Luhn-valid, starting 4242. The
 * local Stripe pays with it and gives it a fingerprint of its own, so one
 * test's trial never makes another test's card "seen before" (the trial is
 * given once per card, docs/decisions/0019).
 */
export function freshCardNumber(): string {
  for (;;) {
    const body = `4242${Array.from({ length: 11 }, () => randomInt(10)).join('')}`;
    const card = `${body}${luhnCheckDigit(body)}`;
    if (card !== '4242424242424242') return card;
  }
}
