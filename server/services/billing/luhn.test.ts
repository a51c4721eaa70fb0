import { expect, test } from 'vitest';
import { cardBrand, cardDigits, luhnValid } from './luhn.ts';

test('Luhn, digits and brand', () => {
  expect(cardDigits('4242 4242 4242 4242')).toBe('4242424242424242');
  expect(cardDigits('4242-4242-x')).toBeNull();
  for (const n of ['4242424242424242', '4000000000000002', '4000000000009995', '4000000000000341', '5555555555554444'])
    expect(luhnValid(n), n).toBe(true);
  expect(luhnValid('4242424242424241')).toBe(false);
  expect(cardBrand('4242424242424242')).toBe('Visa');
  expect(cardBrand('5555555555554444')).toBe('Mastercard');
  expect(cardBrand('378282246310005')).toBe('American Express');
});
