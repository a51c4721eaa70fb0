import { allCountries, countryName, searchCountries, toggleCountry } from './countries.ts';

describe('countries', () => {
  test('names the countries by their ISO codes, without regions such as EU or ZZ', () => {
    const codes = allCountries().map((country) => country.code);
    expect(codes).toEqual(expect.arrayContaining(['FR', 'DE', 'US', 'CN', 'BR']));
    expect(codes).not.toContain('EU');
    expect(codes).not.toContain('ZZ');
    expect(countryName('FR')).toBe('France');
  });

  test('searches by name or exact code; toggling adds sorted and removes', () => {
    expect(searchCountries('germ').map((country) => country.code)).toEqual(['DE']);
    expect(searchCountries('us').map((country) => country.code)).toContain('US');
    expect(toggleCountry(['FR'], 'DE')).toEqual(['DE', 'FR']);
    expect(toggleCountry(['DE', 'FR'], 'FR')).toEqual(['DE']);
  });
});
