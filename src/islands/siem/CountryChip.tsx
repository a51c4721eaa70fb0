import { countryName } from '../shared/countries.ts';

/**
 * A client's country: its flag (an SVG of the `flag-icons` package the site serves at /flags/, drawn the same in
 * every browser, with no emoji font), then the name. The flag is decoration (empty alt); the name is read out, and
 * the two-letter code is shown and spoken instead when the browser cannot name the country (the cell's title and the
 * drawer give both).
 */
export function CountryChip({ code }: { readonly code: string }) {
  const upper = code.toUpperCase();
  const name = countryName(upper);
  const known = name !== upper;
  return (
    <span className="country-chip">
      {/^[A-Z]{2}$/.test(upper) && (
        <img
          className="country-chip__flag"
          src={`/flags/${upper.toLowerCase()}.svg`}
          alt=""
          width={16}
          height={12}
          loading="lazy"
          decoding="async"
          onError={(event) => {
            // No flag for this code (e.g. XX): the code chip stands alone.
            event.currentTarget.hidden = true;
          }}
        />
      )}
      {known ? <span className="country-chip__name">{name}</span> : <span className="country-chip__code">{upper}</span>}
    </span>
  );
}

/** The country in words for a tooltip or a label: "France (FR)", or the code alone when unknown. */
export function countryText(code: string): string {
  const upper = code.toUpperCase();
  const name = countryName(upper);
  return name === upper ? upper : `${name} (${upper})`;
}
