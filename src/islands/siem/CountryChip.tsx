import { countryName } from '../firewall/countries.ts';

/**
 * A client's country as text, drawn the same in every browser: the two-letter code in a small chip, then the name
 * (no emoji flags: they need a colour emoji font, which many Linux desktops lack). The chip is hidden from screen
 * readers, which read the name alone; the code is spoken when the name is unknown.
 */
export function CountryChip({ code }: { readonly code: string }) {
  const upper = code.toUpperCase();
  const name = countryName(upper);
  const known = name !== upper;
  return (
    <span className="country-chip">
      <span className="country-chip__code" aria-hidden={known ? true : undefined}>
        {upper}
      </span>
      {known && (
        <>
          {' '}
          <span className="country-chip__name">{name}</span>
        </>
      )}
    </span>
  );
}

/** The country in words for a tooltip or a label: "France (FR)", or the code alone when unknown. */
export function countryText(code: string): string {
  const upper = code.toUpperCase();
  const name = countryName(upper);
  return name === upper ? upper : `${name} (${upper})`;
}
