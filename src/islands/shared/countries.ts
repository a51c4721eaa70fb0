/** The countries a firewall can block: ISO 3166 alpha-2 codes with their English names, from the browser's Intl data. */

/** One country of the list. */
export interface Country {
  readonly code: string;
  readonly name: string;
}

// Codes Intl names that are not countries of the IP-to-country data: regions and groupings, the exceptionally
// reserved codes (UK, EU, ...) and the codes ISO 3166 withdrew (Dahomey's DY is Benin's BJ today, Upper Volta's HV
// Burkina Faso's BF), which Intl still names after the country that replaced them, so the list would show it twice.
const NOT_COUNTRIES = new Set(
  (
    'EU EZ UN ZZ QO XA XB AC CP DG EA IC TA CQ UK ' +
    'AN BU CS CT DD DY FQ FX HV JT MI NH NQ NT PC PU PZ RH SU TP VD WK YD YU ZR'
  ).split(' '),
);

let cached: Country[] | null = null;

/** Every country Intl names, by name. */
export function allCountries(): Country[] {
  if (cached) return cached;
  const names = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });
  const list: Country[] = [];
  for (let first = 65; first <= 90; first += 1) {
    for (let second = 65; second <= 90; second += 1) {
      const code = String.fromCharCode(first, second);
      if (NOT_COUNTRIES.has(code)) continue;
      const name = names.of(code);
      if (name && name !== code) list.push({ code, name });
    }
  }
  cached = list.sort((a, b) => a.name.localeCompare(b.name, 'en'));
  return cached;
}

/** A country's name, or its code when Intl does not know it. */
export function countryName(code: string): string {
  return allCountries().find((country) => country.code === code)?.name ?? code;
}

/** The countries whose name or code contains the search, case-insensitive. */
export function searchCountries(query: string): Country[] {
  const wanted = query.trim().toLowerCase();
  if (wanted === '') return allCountries();
  return allCountries().filter(
    (country) => country.name.toLowerCase().includes(wanted) || country.code.toLowerCase() === wanted,
  );
}

/** The list with the country added or removed, sorted. */
export function toggleCountry(list: readonly string[], code: string): string[] {
  return list.includes(code) ? list.filter((other) => other !== code) : [...list, code].sort();
}
