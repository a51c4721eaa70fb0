import { allCountries, countryName, searchCountries, toggleCountry } from './countries.ts';

describe('countries', () => {
  test('names the countries by their ISO codes, without regions such as EU or ZZ', () => {
    const codes = allCountries().map((country) => country.code);
    expect(codes).toEqual(expect.arrayContaining(['FR', 'DE', 'US', 'CN', 'BR']));
    expect(codes).not.toContain('EU');
    expect(codes).not.toContain('ZZ');
    expect(countryName('FR')).toBe('France');
  });

  test('names each country once: the withdrawn codes of Benin (DY), Burkina Faso (HV) and others stay out', () => {
    const countries = allCountries();
    const codes = countries.map((country) => country.code);
    expect(codes).toEqual(expect.arrayContaining(['BJ', 'BF', 'GB', 'RU', 'VN', 'YE', 'ZW', 'VU']));
    for (const withdrawn of ['DY', 'HV', 'UK', 'SU', 'VD', 'YD', 'RH', 'NH']) expect(codes).not.toContain(withdrawn);
    const names = countries.map((country) => country.name);
    expect(names.filter((name, index) => names.indexOf(name) !== index)).toEqual([]);
    expect(searchCountries('benin').map((country) => country.code)).toEqual(['BJ']);
  });

  test('searches by name or exact code; toggling adds sorted and removes', () => {
    expect(searchCountries('germ').map((country) => country.code)).toEqual(['DE']);
    expect(searchCountries('us').map((country) => country.code)).toContain('US');
    expect(toggleCountry(['FR'], 'DE')).toEqual(['DE', 'FR']);
    expect(toggleCountry(['DE', 'FR'], 'FR')).toEqual(['DE']);
  });
});
